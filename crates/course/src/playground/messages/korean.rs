//! Korean particles chosen by the sound a word ends in.
//!
//! A Korean particle has two forms, one after a final consonant (받침) and
//! one after a vowel: 을/를, 이/가, 은/는, 과/와, 으로/로 (a final ㄹ takes
//! 로), 이나/나, 이라/라, 이다/다, ... The values put into messages are
//! worker names (`A`, `B`), job ids (`snack-1`), numbers, states and
//! Korean titles, so a fallback like `을(를)` would show on almost every
//! line. Instead the word is read the way a Korean reader says it: a Hangul
//! syllable by its 받침, a number by its Korean reading (1 일, 10 십,
//! 1000 천), a single letter or an acronym by the letter's name (A 에이,
//! L 엘, N 엔), and an English word by the sound it ends in (`token` 토큰,
//! `null` 널, `owner` 오너).

use serde::Serialize;

/// How a word ends, as far as a particle cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ending {
    /// A vowel: 를, 가, 는, 와, 로.
    Vowel,
    /// The final consonant ㄹ: 을, 이, 은, 과, but 로.
    Rieul,
    /// Any other final consonant: 을, 이, 은, 과, 으로.
    Consonant,
}

/// The particle pairs, consonant form first. A template may name either
/// form (`{id|을}` or `{id|를}`).
const PAIRS: &[(&str, &str)] = &[
    ("을", "를"),
    ("이", "가"),
    ("은", "는"),
    ("과", "와"),
    ("으로", "로"),
    ("으로서", "로서"),
    ("으로써", "로써"),
    ("이나", "나"),
    ("이라", "라"),
    ("이라고", "라고"),
    ("이라는", "라는"),
    ("이다", "다"),
    ("이고", "고"),
    ("이며", "며"),
    ("이면", "면"),
    ("이든", "든"),
    ("이랑", "랑"),
    ("이에요", "예요"),
];

/// The form of `particle` (either form of a known pair) that follows
/// `word`; `None` for a particle this module does not know.
pub fn particle(word: &str, particle: &str) -> Option<&'static str> {
    let &(consonant, vowel) = PAIRS
        .iter()
        .find(|(consonant, vowel)| *consonant == particle || *vowel == particle)?;
    Some(match ending(word) {
        Ending::Consonant => consonant,
        // ㄹ takes the consonant form except for the 으로 family.
        Ending::Rieul if consonant.starts_with("으로") => vowel,
        Ending::Rieul => consonant,
        Ending::Vowel => vowel,
    })
}

/// How `word` ends when read aloud. Trailing punctuation, quotes and
/// brackets are not read; a word with nothing readable (an emoji, an empty
/// name) counts as vowel-final, the form that reads least oddly after a
/// pause.
pub fn ending(word: &str) -> Ending {
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let Some(last) = word.chars().next_back() else {
        return Ending::Vowel;
    };
    if let Some(ending) = hangul(last) {
        return ending;
    }
    if last.is_ascii_digit() {
        let digits: String = word
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect();
        return number(&digits);
    }
    if last.is_ascii_alphabetic() {
        let letters: String = word
            .chars()
            .rev()
            .take_while(char::is_ascii_alphabetic)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return latin(&letters);
    }
    Ending::Vowel
}

/// A Hangul syllable by its final consonant (종성).
fn hangul(c: char) -> Option<Ending> {
    let index = u32::from(c).checked_sub(0xAC00).filter(|i| *i < 11_172)?;
    Some(match index % 28 {
        0 => Ending::Vowel,
        8 => Ending::Rieul,
        _ => Ending::Consonant,
    })
}

/// A number by its Korean reading. `reversed` holds its digits, last
/// first: trailing zeros make it end in a unit (10 십, 100 백, 1000 천,
/// 10000 만, 1억, 1조), otherwise the last digit is read (1 일, 2 이, ...).
fn number(reversed: &str) -> Ending {
    let zeros = reversed.chars().take_while(|c| *c == '0').count();
    if zeros == reversed.len() {
        return Ending::Consonant; // 영
    }
    if zeros > 0 {
        // 십, 백, 천, 만, 억 and 경 end in a consonant; only 조 does not
        // (1조 to 천조: 12 to 15 zeros).
        return if (12..16).contains(&zeros) {
            Ending::Vowel
        } else {
            Ending::Consonant
        };
    }
    match reversed.chars().next() {
        // 일, 칠, 팔
        Some('1' | '7' | '8') => Ending::Rieul,
        // 삼, 육
        Some('3' | '6') => Ending::Consonant,
        // 이, 사, 오, 구
        _ => Ending::Vowel,
    }
}

/// Latin letters: one letter or an all-capital acronym (`ID`, `SQL`,
/// `JSON` aside) by the last letter's Korean name; a word by the sound it
/// ends in, after the common loanword readings.
fn latin(letters: &str) -> Ending {
    let lower = letters.to_ascii_lowercase();
    // Words read as words though written in capitals.
    if let Some(ending) = known_word(&lower) {
        return ending;
    }
    let acronym = letters.len() == 1 || letters.chars().all(|c| c.is_ascii_uppercase());
    if acronym {
        return match lower.chars().next_back() {
            // 엘, 알
            Some('l' | 'r') => Ending::Rieul,
            // 엠, 엔
            Some('m' | 'n') => Ending::Consonant,
            // 에이, 비, 씨, 디, ...
            _ => Ending::Vowel,
        };
    }
    english(&lower)
}

/// Words the playground shows whose reading the rules below would miss.
fn known_word(lower: &str) -> Option<Ending> {
    Some(match lower {
        // 제이슨, 비긴, 커밋
        "json" | "begin" | "commit" => Ending::Consonant,
        // 아이디, 큐티와이, 에스큐엘라이트
        "id" | "qty" | "sqlite" => Ending::Vowel,
        // 왈
        "wal" => Ending::Rieul,
        _ => return None,
    })
}

/// An English word by its last sound: -l ㄹ (`null` 널, `until` 언틸); -m,
/// -n, -ng a consonant (`token` 토큰); a silent final e is dropped (`done`
/// 던, `table` 테이블); p, t, k after one short vowel become 받침 (`snack`
/// 스낵, `set` 셋); anything else gets 으 and ends in a vowel (`leased`
/// 리스드, `owner` 오너, `test` 테스트).
fn english(lower: &str) -> Ending {
    let vowel = |c: char| "aeiou".contains(c);
    let chars: Vec<char> = lower.chars().collect();
    let silent_e = chars.len() > 2
        && chars.ends_with(&['e'])
        && !vowel(chars[chars.len() - 2])
        && chars[..chars.len() - 2].iter().any(|c| vowel(*c));
    let word = if silent_e {
        &chars[..chars.len() - 1]
    } else {
        &chars[..]
    };
    let last = word.last().copied().unwrap_or('a');
    let before = |n: usize| word.len().checked_sub(n).map(|i| word[i]);
    match last {
        'l' => Ending::Rieul,
        'm' | 'n' => Ending::Consonant,
        'g' if before(2) == Some('n') => Ending::Consonant,
        'k' if before(2) == Some('c') => Ending::Consonant,
        'p' | 't' | 'k' | 'b' if !silent_e => {
            let short = before(2).is_some_and(vowel) && !before(3).is_some_and(vowel);
            if short {
                Ending::Consonant
            } else {
                Ending::Vowel
            }
        }
        _ => Ending::Vowel,
    }
}
