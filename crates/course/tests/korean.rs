//! Korean as a native writes it: particles fit the word before them, and
//! every concept has its one word (the course's). That nothing in Latin
//! script shows in Korean mode: tests/korean_script.rs.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::messages::korean::{Ending, ending, particle};

/// Each word with how a Korean reader ends it aloud.
#[test]
fn a_word_ends_as_a_korean_reader_says_it() {
    #[rustfmt::skip]
    let cases = [
        // Hangul by its 받침.
        ("전달자", Ending::Vowel), ("서울", Ending::Rieul), ("임대", Ending::Vowel),
        ("선점", Ending::Consonant), ("“늦게 돌아온 전달자”", Ending::Vowel),
        // Letters by their Korean names: 에이, 비, 씨, 엘, 엠, 엔, 알.
        ("A", Ending::Vowel), ("B", Ending::Vowel), ("C", Ending::Vowel),
        ("L", Ending::Rieul), ("M", Ending::Consonant), ("N", Ending::Consonant),
        ("R", Ending::Rieul),
        // Acronyms: 에스큐엘, 아이디, 제이슨.
        ("SQL", Ending::Rieul), ("ID", Ending::Vowel), ("JSON", Ending::Consonant),
        // Numbers: 영, 일, 이, 삼, 사, 육, 칠, 팔, 구.
        ("0", Ending::Consonant), ("1", Ending::Rieul), ("2", Ending::Vowel),
        ("3", Ending::Consonant), ("4", Ending::Vowel), ("6", Ending::Consonant),
        ("7", Ending::Rieul), ("8", Ending::Rieul), ("9", Ending::Vowel),
        // 십, 백, 천, 천일, 천이, 만, 일조.
        ("10", Ending::Consonant), ("100", Ending::Consonant), ("1000", Ending::Consonant),
        ("1001", Ending::Rieul), ("1002", Ending::Vowel), ("10000", Ending::Consonant),
        ("1000000000000", Ending::Vowel),
        // Ids and names by their last character: 일, 이, 리스타티드.
        ("snack-1", Ending::Rieul), ("snack-2", Ending::Vowel), ("A-restarted", Ending::Vowel),
        // English words by their last sound: 토큰, 오너, 널, 언틸, 던, 펜딩,
        // 리스드, 익스파이어드, 스테이트, 데드라인, 스낵.
        ("token", Ending::Consonant), ("owner", Ending::Vowel), ("null", Ending::Rieul),
        ("lease_until", Ending::Rieul), ("done", Ending::Consonant),
        ("pending", Ending::Consonant), ("leased", Ending::Vowel), ("expired", Ending::Vowel),
        ("state", Ending::Vowel), ("deadline", Ending::Consonant), ("snack", Ending::Consonant),
        // Nothing readable: the vowel form.
        ("", Ending::Vowel), ("🙂", Ending::Vowel),
    ];

    let current: Vec<_> = cases
        .iter()
        .map(|(word, _)| (*word, ending(word)))
        .collect();
    check!(current, cases.to_vec(), "how each word ends");
}

/// Every pair, after a vowel, a ㄹ and another consonant; a template may
/// name either form.
#[test]
fn each_particle_takes_the_form_that_fits_the_word_before_it() {
    let pairs = [
        ("을", ["B를", "snack-1을", "token을"]),
        ("를", ["B를", "snack-1을", "token을"]),
        ("이", ["B가", "snack-1이", "token이"]),
        ("은", ["B는", "snack-1은", "token은"]),
        ("와", ["B와", "snack-1과", "token과"]),
        ("과", ["B와", "snack-1과", "token과"]),
        // ㄹ takes 로, not 으로.
        ("으로", ["B로", "snack-1로", "token으로"]),
        ("이나", ["B나", "snack-1이나", "token이나"]),
        ("이라", ["B라", "snack-1이라", "token이라"]),
        ("이다", ["B다", "snack-1이다", "token이다"]),
        ("이에요", ["B예요", "snack-1이에요", "token이에요"]),
    ];
    for (name, expected) in pairs {
        let current = ["B", "snack-1", "token"]
            .map(|word| format!("{word}{}", particle(word, name).unwrap_or("?")));
        check!(
            current,
            expected,
            "{word}: after B, snack-1, token",
            word = name
        );
    }
    check!(
        particle("B", "의"),
        None,
        "an unknown particle is not guessed"
    );
}

/// `Lang::fill` with `{name|이}`: the value, then the particle that fits
/// it; values are inserted once, so a job called `{id|이}` stays so.
#[test]
fn a_placeholder_with_a_particle_is_filled_with_the_fitting_form() {
    let twice =
        |id: &str| Lang::Ko.fill(key!("problem.job_listed_twice"), &[("id", id.to_owned())]);
    check!(
        [twice("snack-1"), twice("j"), twice("{id|이}")],
        [
            "업무 snack-1이 두 번 나옵니다".to_owned(),
            "업무 j가 두 번 나옵니다".to_owned(),
            "업무 {id|이}가 두 번 나옵니다".to_owned(),
        ],
        "problem.job_listed_twice"
    );
}

#[derive(serde::Deserialize)]
struct Glossary {
    /// Phrases of the course's title, which a message may quote with the
    /// title's own words.
    quoted: Vec<String>,
    concepts: Vec<Concept>,
}

#[derive(serde::Deserialize)]
struct Concept {
    concept: String,
    ko: String,
    #[serde(default)]
    gloss: Vec<String>,
    not: Vec<String>,
}

const GLOSSARY: &str = include_str!("../src/playground/messages/glossary.json");

/// One word per concept: every concept's Korean word is used, no Korean
/// message says it another way (but inside a phrase it quotes from the
/// course's title),
/// and a second name the course also uses
/// (선점 번호) only stands beside the word itself.
#[test]
fn each_concept_has_its_one_korean_word() {
    let glossary: Glossary = serde_json::from_str(GLOSSARY).expect("glossary.json parses");
    // Each message read without what it quotes of the course's title,
    // longest phrase first.
    let mut quoted = glossary.quoted.clone();
    quoted.sort_by_key(|phrase| std::cmp::Reverse(phrase.len()));
    let messages: Vec<(String, String)> = (support::korean_messages().into_iter())
        .map(|(key, text)| {
            let unquoted =
                (quoted.iter()).fold(text, |text, phrase| text.replace(phrase.as_str(), "…"));
            (key, unquoted)
        })
        .collect();
    let mut problems = Vec::new();
    for concept in &glossary.concepts {
        if !messages.iter().any(|(_, text)| text.contains(&concept.ko)) {
            problems.push(format!("{}: {} is never used", concept.concept, concept.ko));
        }
        for (key, text) in &messages {
            for other in (concept.not.iter()).filter(|other| text.contains(other.as_str())) {
                problems.push(format!(
                    "{key}: says {other} for {} (the word is {})",
                    concept.concept, concept.ko
                ));
            }
            for gloss in &concept.gloss {
                if text.contains(gloss.as_str()) && !text.contains(&concept.ko) {
                    problems.push(format!("{key}: {gloss} without {}", concept.ko));
                }
            }
        }
    }
    check!(problems, Vec::<String>::new(), "glossary violations");
}

/// The standard name of the token, the one a learner would search for
/// (펜싱 토큰, fencing token), is given once, where the first chapter
/// introduces the token, and nowhere else: the course's own word is
/// 선점 토큰.
#[test]
fn the_tokens_standard_name_is_given_once_where_the_token_is_introduced() {
    let saying: Vec<String> = (support::korean_messages().into_iter())
        .filter(|(_, text)| text.contains("펜싱 토큰"))
        .map(|(key, _)| key)
        .collect();
    let first = leasefence_course::playground::CHAPTERS[0].id;
    check!(
        saying,
        vec![format!("chapter.{first}.text")],
        "the Korean messages that name 펜싱 토큰"
    );
}

/// No `을(를)`-style fallback and no Japanese brackets in any Korean
/// message: the particle is chosen (`{name|을}`) and quotes are “ ”.
#[test]
fn korean_messages_have_no_fallback_particles_or_japanese_brackets() {
    let fallbacks = [
        "(를)", "(을)", "(가)", "(이)", "(는)", "(은)", "(와)", "(과)", "(으)", "「", "」",
    ];
    let found: Vec<_> = support::korean_messages()
        .into_iter()
        .filter(|(_, text)| fallbacks.iter().any(|f| text.contains(f)))
        .collect();
    check!(found, Vec::<(String, String)>::new(), "fallbacks left");
}

/// Every `{name|particle}` in either file names a particle the function
/// knows, so none is left on the page unfilled.
#[test]
fn every_particle_in_a_template_is_known() {
    let mut unknown = Vec::new();
    for (key, text) in support::korean_messages() {
        let mut rest = text.as_str();
        while let Some(open) = rest.find('{') {
            let inside = &rest[open + 1..];
            let Some(close) = inside.find('}') else { break };
            if let Some((_, name)) = inside[..close].split_once('|')
                && particle("A", name).is_none()
            {
                unknown.push(format!("{key}: {name}"));
            }
            rest = &inside[close..];
        }
    }
    check!(unknown, Vec::<String>::new(), "unknown particles");
}
