//! What the statements did, written down when someone (the playground)
//! asks: each statement with its bound values and rows, and the jobs the
//! writes changed.

use std::borrow::Cow;

use rusqlite::ToSql;
use rusqlite::types::ToSqlOutput;
use serde::Serialize;

/// A value bound to a statement parameter: what SQLite received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Bound {
    /// An integer (times, quantities, tokens).
    Int(i64),
    /// A string (ids and names).
    Text(String),
    /// SQL `NULL` (an owner or a lease a job does not have yet), as a
    /// statement written outside this crate may read it.
    Null,
}

impl ToSql for Bound {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Bound::Int(value) => value.to_sql(),
            Bound::Text(value) => value.to_sql(),
            Bound::Null => Ok(ToSqlOutput::from(rusqlite::types::Null)),
        }
    }
}

/// SQLite stores signed 64-bit integers; every value we bind was checked to
/// be at most [`crate::MAX_INT`], so the conversion cannot fail in practice.
impl From<u64> for Bound {
    fn from(value: u64) -> Bound {
        Bound::Int(i64::try_from(value).unwrap_or(i64::MAX))
    }
}

impl From<&str> for Bound {
    fn from(value: &str) -> Bound {
        Bound::Text(value.to_owned())
    }
}

impl Bound {
    /// The value a statement read from a column: an integer, text or
    /// `NULL`; a real or a blob (which no column of the schema holds) is
    /// refused.
    pub(crate) fn read(value: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<Bound> {
        use rusqlite::types::ValueRef;
        match value {
            ValueRef::Integer(value) => Ok(Bound::Int(value)),
            // Text the queue stored came in as UTF-8 and comes back so.
            ValueRef::Text(text) => Ok(Bound::Text(String::from_utf8_lossy(text).into_owned())),
            ValueRef::Null => Ok(Bound::Null),
            other => Err(rusqlite::Error::InvalidColumnType(
                0,
                String::new(),
                other.data_type(),
            )),
        }
    }
}

pub(super) fn int(value: u64) -> Bound {
    Bound::from(value)
}

pub(super) fn text(value: &str) -> Bound {
    Bound::from(value)
}

/// One statement as the queue ran it: the text, the values bound to it, and
/// how many rows it changed (a write) or returned (a read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Executed {
    /// The statement: one of this module's constants, or one written
    /// outside this crate ([`super::Outside`]).
    pub sql: Cow<'static, str>,
    /// Parameter name -> bound value, in binding order.
    pub params: Vec<(&'static str, Bound)>,
    /// Whether the statement writes.
    pub write: bool,
    /// Rows changed (a write) or returned (a read).
    pub rows: usize,
}

/// Where the statements of one operation are written down, when someone
/// (the course) asked for them. Off, it costs nothing.
#[derive(Debug, Default)]
pub(crate) struct SqlLog {
    entries: Option<Vec<Executed>>,
    /// Ids of the jobs the writes changed, while recording.
    touched: Vec<String>,
}

impl SqlLog {
    /// Starts (or stops) writing statements down.
    pub(crate) fn record(&mut self, on: bool) {
        self.entries = on.then(Vec::new);
        self.touched.clear();
    }

    /// The statements written down since the last call.
    pub(crate) fn take(&mut self) -> Vec<Executed> {
        self.entries
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The ids of the jobs changed since the last call (each once, in the
    /// order first changed), while recording.
    pub(crate) fn take_touched(&mut self) -> Vec<String> {
        std::mem::take(&mut self.touched)
    }

    pub(super) fn touch(&mut self, id: &str) {
        if self.entries.is_some() && !self.touched.iter().any(|seen| seen == id) {
            self.touched.push(id.to_owned());
        }
    }

    pub(super) fn note(
        &mut self,
        sql: &'static str,
        params: &[(&'static str, Bound)],
        write: bool,
        rows: usize,
    ) {
        if let Some(entries) = &mut self.entries {
            entries.push(Executed {
                sql: Cow::Borrowed(sql.trim()),
                params: params.to_vec(),
                write,
                rows,
            });
        }
    }
}

pub(super) type Params = [(&'static str, Bound)];

pub(super) fn bind(params: &Params) -> Vec<(&str, &dyn ToSql)> {
    params
        .iter()
        .map(|(name, value)| (*name, value as &dyn ToSql))
        .collect()
}
