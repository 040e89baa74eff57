//! The values of a claim the quiz offers, apart from the quiz itself: the
//! sentences that state which of them differ ([`crate::playground::assertions`])
//! need them without the stepper the quiz is asked in.

use serde::Serialize;

use leasefence::model::Claim;

/// A value of a claim the quiz asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The name the claim was taken under (`owner`).
    Owner,
    /// The job's id.
    Id,
    /// The token.
    Token,
    /// The attempt: every claim raises it with the token (R2), so it
    /// tells the same claims apart; offered so that no answer says the
    /// token alone differs where the table shows both changed.
    Attempt,
}

impl Field {
    /// Every choice, in the order offered.
    pub const ALL: [Field; 4] = [Field::Owner, Field::Id, Field::Token, Field::Attempt];

    /// Its column's name (the page's argument, and what the table shows).
    pub fn name(self) -> &'static str {
        match self {
            Field::Owner => "owner",
            Field::Id => "id",
            Field::Token => "token",
            Field::Attempt => "attempt",
        }
    }

    /// The field with this [`Field::name`].
    pub fn parse(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|field| field.name() == name)
    }

    /// Its value in `claim`.
    pub fn of(self, claim: &Claim) -> String {
        match self {
            Field::Owner => claim.owner.clone(),
            Field::Id => claim.id.clone(),
            Field::Token => claim.token.to_string(),
            Field::Attempt => claim.attempt.to_string(),
        }
    }
}
