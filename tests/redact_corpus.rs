//! The redaction corpora and the real transcripts.
//!
//! * Co-developed: every synthetic secret in `tests/fixtures/secrets/positives.txt`
//!   must be gone (with its kind named), every look-alike in `negatives.txt` must
//!   survive byte-for-byte. The rules were written against these, so they must
//!   pass whole.
//! * Held-out: `held-out.txt`, frozen and never tuned against (its header says
//!   where each group comes from). Its recall and false positives are printed
//!   beside the co-developed ones; the test fails only below the floor
//!   `HELD_OUT_FLOOR` states. The later sets (`held-out-*.txt`) are printed beside it,
//!   never with a list of their failing cases; three of them (unseen, sealed, blind) are
//!   tuned against since [15]'s fifth round, one (apart) since its sixth, one (aside)
//!   since its sixth's second half, one (beyond) since its seventh and one (afar) since its
//!   seventh's second half, two (anew, yonder) since its eighth and one (distant) since its ninth, each after
//!   its clean figure was taken, and keep what the round that tuned them reached as floors;
//!   outland and remote are frozen.
//! * Real transcripts: every string in every transcript under
//!   `../shared/real-transcripts/` (public sessions, no live credentials) is
//!   redacted and each redaction printed with its context; any redaction not in
//!   `KNOWN_TRUE_SECRETS` fails.
//!
//! The summaries are written straight to stderr (not through `eprintln!`, which
//! the test harness captures), so they show without `--nocapture`.

use std::io::Write;
use std::path::{Path, PathBuf};

use compact_plus::redact::{kinds, redact, redact_counted, redactions, rule_kinds};

struct Case {
    /// `# kind:` / `# lookalike:` and friends, in file order.
    headers: Vec<(String, String)>,
    text: String,
}

impl Case {
    fn values(&self, name: &str) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.replace("\\n", "\n"))
            .collect()
    }
}

fn fixture(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        "secrets",
        name,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Cases are separated by `=====` lines; the part before the first is a comment.
fn parse(source: &str, header_names: &[&str]) -> Vec<Case> {
    let mut chunks: Vec<Vec<&str>> = Vec::new();
    for line in source.split('\n') {
        if line == "=====" {
            chunks.push(Vec::new());
        } else if let Some(chunk) = chunks.last_mut() {
            chunk.push(line);
        }
    }
    chunks
        .into_iter()
        .map(|mut lines| {
            if lines.last() == Some(&"") {
                lines.pop();
            }
            let mut headers = Vec::new();
            let mut body_start = 0;
            for line in &lines {
                let header = header_names.iter().find_map(|name| {
                    line.strip_prefix(&format!("# {name}: "))
                        .map(|v| (name.to_string(), v.to_string()))
                });
                match header {
                    Some(h) => {
                        headers.push(h);
                        body_start += 1;
                    }
                    None => break,
                }
            }
            Case {
                headers,
                text: lines[body_start..].join("\n"),
            }
        })
        .collect()
}

fn positives() -> Vec<Case> {
    parse(&fixture("positives.txt"), &["source", "kind", "secret", "keep"])
}

fn negatives() -> Vec<Case> {
    parse(&fixture("negatives.txt"), &["source", "lookalike"])
}

fn held_out() -> Vec<Case> {
    parse(&fixture("held-out.txt"), &["source", "secret", "lookalike"])
}

/// The second held-out set (issue [15]): verbatim test data and configuration
/// examples from registry packages, frozen before that issue's rules changed.
fn held_out_packages() -> Vec<Case> {
    parse(
        &fixture("held-out-packages.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The third held-out set (issue [15], second round): verbatim sample configs, test
/// data and documentation examples from Debian, PyPI and npm packages none of the other
/// corpora used, frozen before that round's rules changed.
fn held_out_samples() -> Vec<Case> {
    parse(
        &fixture("held-out-samples.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The fourth held-out set (issue [15], third round): verbatim test data, sample
/// configs, READMEs and type declarations from Debian, PyPI and npm packages none of the
/// other corpora used, frozen before that round's rules changed.
fn held_out_fresh() -> Vec<Case> {
    parse(
        &fixture("held-out-fresh.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The fifth held-out set (issue [15], after its third round): verbatim sample configs,
/// module examples, SDK tests, docs, READMEs and test fixtures from Debian, PyPI and npm
/// packages none of the other corpora used and none of whose services or tools the rules
/// name, frozen after that round's rules and before any later change, measured once.
fn held_out_unseen() -> Vec<Case> {
    parse(
        &fixture("held-out-unseen.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The sixth held-out set (issue [15], fourth round): verbatim test data, sample configs,
/// READMEs and docs from registry packages named n to z (the round's rules were written from
/// packages named a to m), none used by the other corpora, frozen before that round's rules
/// changed and measured once, at its end.
fn held_out_sealed() -> Vec<Case> {
    parse(
        &fixture("held-out-sealed.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The seventh held-out set (issue [15], fifth round): verbatim test data, sample configs,
/// READMEs and code from Debian, PyPI, npm and crates.io packages none of the other corpora
/// or sweeps used, committed before that round's rules changed (its rule writers read only
/// the sealed and unseen sets, promoted to development then) and measured once, at its end.
fn held_out_blind() -> Vec<Case> {
    parse(
        &fixture("held-out-blind.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The eighth held-out set (issue [15], fifth round's second half): verbatim test data,
/// sample configs, READMEs and code from Debian, PyPI, npm and crates.io packages none of the
/// other corpora or sweeps used, committed before that half's rules changed (its rule
/// writers read only the sealed, unseen and blind sets) and measured once, at its end;
/// tuned against since the sixth round.
fn held_out_apart() -> Vec<Case> {
    parse(
        &fixture("held-out-apart.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The ninth held-out set (issue [15], sixth round): verbatim test data, sample configs,
/// manuals, READMEs and code from Debian, PyPI and npm packages named n to r and crates named
/// a to m, none used by the other corpora or sweeps, committed before any of that round's
/// rules changed (its first half's writers read only the unseen, sealed, blind and apart sets
/// and specifications) and measured once, at the end of that half; promoted to development
/// in the round's second half, whose rules were written from its failing cases.
fn held_out_aside() -> Vec<Case> {
    parse(
        &fixture("held-out-aside.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The tenth held-out set (issue [15], sixth round): verbatim test data, sample configs,
/// manuals, READMEs and code from Debian, PyPI and npm packages named s to z and crates named
/// n to z, none used by the other corpora or sweeps, committed before any of that round's
/// rules changed, never read by its rule writers, and measured once, at the round's end;
/// promoted to development in the seventh round, whose rules were written from its failing
/// cases.
fn held_out_beyond() -> Vec<Case> {
    parse(
        &fixture("held-out-beyond.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The eleventh held-out set (issue [15], seventh round): verbatim test data, sample configs,
/// manuals, READMEs and code from Debian, PyPI and npm packages named n to r and crates named
/// a to m, none used by the other corpora or sweeps, committed before any of that round's
/// rules changed (its first half's writers read only the earlier sets and specifications) and
/// measured once, at the end of that half; promoted to development in the round's second half,
/// whose rules were written from its failing cases.
fn held_out_afar() -> Vec<Case> {
    parse(
        &fixture("held-out-afar.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The twelfth held-out set (issue [15], seventh round): verbatim test data, sample configs,
/// manuals, READMEs and code from Debian, PyPI and npm packages named s to z and crates named
/// n to z, none used by the other corpora or sweeps, committed before any of that round's
/// rules changed, never read by its rule writers, and measured once, at the round's end;
/// promoted to development in the eighth round, whose `outlier` branch wrote rules from its
/// failing cases.
fn held_out_anew() -> Vec<Case> {
    parse(
        &fixture("held-out-anew.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The thirteenth held-out set (issue [15], eighth round): verbatim test data, sample configs,
/// manuals, READMEs and code from Debian, PyPI and npm packages named a to k and crates named
/// n to z, none used by the other corpora or sweeps, committed before any of that round's
/// rules changed, measured at its start and again with the rules its writers took from
/// specifications alone (its clean figures), then promoted: one writer of that round wrote
/// rules from its failing cases.
fn held_out_yonder() -> Vec<Case> {
    parse(
        &fixture("held-out-yonder.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The fourteenth held-out set (issue [15], eighth round): as yonder, from Debian, PyPI and
/// npm packages named l to z and crates named a to m, but never read by a rule writer and
/// measured at the round's start and end only.
fn held_out_distant() -> Vec<Case> {
    parse(
        &fixture("held-out-distant.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The fifteenth held-out set (issue [15], ninth round): verbatim test data, READMEs, docs and
/// code from PyPI and crates.io packages none of the other corpora or sweeps used, committed
/// before any of that round's rules changed and never read by a rule writer.
fn held_out_outland() -> Vec<Case> {
    parse(
        &fixture("held-out-outland.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// The sixteenth held-out set (issue [15], ninth round): as outland, from Debian 12 and npm
/// packages instead (Go modules' tests and examples as Debian ships them, Perl and Ruby
/// libraries, JavaScript SDKs), built by another builder at the same time.
fn held_out_remote() -> Vec<Case> {
    parse(
        &fixture("held-out-remote.txt"),
        &["source", "secret", "lookalike"],
    )
}

/// Why a positive case failed, or `None` when every secret went as expected.
fn positive_failure(case: &Case) -> Option<String> {
    let (out, count) = redact_counted(&case.text);
    let mut problems = Vec::new();
    for secret in case.values("secret") {
        if out.contains(secret.as_str()) {
            problems.push(format!("secret survived: {secret:?}"));
        }
    }
    let expected_kinds = case.values("kind");
    for kind in &expected_kinds {
        let want = expected_kinds.iter().filter(|k| *k == kind).count();
        let got = out.matches(&format!("[REDACTED:{kind}]")).count();
        if got < want {
            problems.push(format!("expected {want} × [REDACTED:{kind}], found {got}"));
        }
    }
    if count < expected_kinds.len() {
        problems.push(format!("count {count} < {} expected", expected_kinds.len()));
    }
    for keep in case.values("keep") {
        if !out.contains(keep.as_str()) {
            problems.push(format!("context lost: {keep:?}"));
        }
    }
    (!problems.is_empty()).then(|| format!("{}\n--- output:\n{out}", problems.join("; ")))
}

/// Recall and false positives of one corpus, with what failed.
struct Figures {
    recalled: usize,
    positives: usize,
    false_positives: usize,
    lookalikes: usize,
    failures: Vec<String>,
}

impl Figures {
    fn recall(&self) -> String {
        format!(
            "{} / {} ({:.1} %)",
            self.recalled,
            self.positives,
            100.0 * self.recalled as f64 / self.positives.max(1) as f64
        )
    }
}

fn co_developed_figures() -> Figures {
    let positives = positives();
    let negatives = negatives();
    assert!(
        positives.len() >= 60,
        "only {} positive cases",
        positives.len()
    );
    assert!(
        negatives.len() >= 60,
        "only {} look-alikes",
        negatives.len()
    );
    let mut failures = Vec::new();
    let mut recalled = 0;
    for (i, case) in positives.iter().enumerate() {
        assert!(
            !case.values("kind").is_empty(),
            "positive #{} has no `# kind:`",
            i + 1
        );
        assert!(
            !case.values("secret").is_empty(),
            "positive #{} has no `# secret:`",
            i + 1
        );
        for kind in case.values("kind") {
            assert!(
                kinds().contains(&kind.as_str()),
                "positive #{}: unknown kind {kind}",
                i + 1
            );
        }
        match positive_failure(case) {
            None => recalled += 1,
            Some(why) => failures.push(format!(
                "positive #{} ({}): {why}",
                i + 1,
                case.values("kind").join(",")
            )),
        }
    }
    let mut false_positives = 0;
    for (i, case) in negatives.iter().enumerate() {
        let (out, count) = redact_counted(&case.text);
        if out != case.text || count != 0 {
            false_positives += 1;
            failures.push(format!(
                "look-alike #{} ({}) changed:\n{out}",
                i + 1,
                case.values("lookalike").join("")
            ));
        }
    }
    Figures {
        recalled,
        positives: positives.len(),
        false_positives,
        lookalikes: negatives.len(),
        failures,
    }
}

/// The held-out corpus, scored on secrets gone and look-alikes untouched
/// (no kinds: its sources do not name ours). Which cases fail is not listed
/// here, so that nobody tunes a rule to them.
fn held_out_figures(cases: Vec<Case>) -> Figures {
    let mut figures = Figures {
        recalled: 0,
        positives: 0,
        false_positives: 0,
        lookalikes: 0,
        failures: Vec::new(),
    };
    for case in cases {
        let secrets = case.values("secret");
        let (out, count) = redact_counted(&case.text);
        if secrets.is_empty() {
            figures.lookalikes += 1;
            if out != case.text || count != 0 {
                figures.false_positives += 1;
            }
        } else {
            figures.positives += 1;
            if secrets.iter().all(|s| !out.contains(s.as_str())) {
                figures.recalled += 1;
            }
        }
    }
    figures
}

/// The held-out figures this redaction must keep: those of the rules as
/// issue [15] left them (before #14: 109 of 167 and 5 of 101; after #14: 124
/// and 6; after [15]: 139 and 7 — the provider table and the generic rule
/// caught 15 more secrets and changed 1 more look-alike; after [15]'s second
/// round: 140 and 7; after its third: 141 and 7; after its fifth: 141 and 6; after its
/// eighth: 141 and 5; after its ninth: 142 and 5; which cases was not looked at). Recall below
/// `recalled`, or more false positives than `false_positives`, is a regression; a rule change that moves the figures
/// the right way raises the floor with it (the corpus itself stays as it is).
struct Floor {
    recalled: usize,
    false_positives: usize,
}
const HELD_OUT_FLOOR: Floor = Floor {
    recalled: 142,
    false_positives: 5,
};

/// The three held-out sets promoted to development in [15]'s fifth round (their clean
/// figures were taken first: unseen 74 of 86 and 27 of 324 after the third round, sealed
/// 62 of 80 and 2 of 222 after the fourth, blind 62 of 84 and 8 of 182 after the fifth's
/// first half): the round wrote rules from their failing cases, so they are evidence no
/// more, and what the round reached on them is kept as a floor, as the co-developed corpus
/// is kept whole.
const UNSEEN_FLOOR: Floor = Floor {
    recalled: 86,
    false_positives: 4,
};
const SEALED_FLOOR: Floor = Floor {
    recalled: 77,
    false_positives: 0,
};
const BLIND_FLOOR: Floor = Floor {
    recalled: 80,
    false_positives: 0,
};
/// The apart set, promoted to development in [15]'s sixth round after its clean figure
/// (72 of 83 and 3 of 170, at the end of the fifth round's second half).
const APART_FLOOR: Floor = Floor {
    recalled: 80,
    false_positives: 0,
};
/// The aside set, promoted to development in [15]'s sixth round's second half after its clean
/// figure (60 of 80 and 10 of 170, with the first half's rules); the half's two rule writers
/// reached 76 and 0 together.
const ASIDE_FLOOR: Floor = Floor {
    recalled: 74,
    false_positives: 0,
};
/// The beyond set, promoted to development in [15]'s seventh round after its clean figure
/// (62 of 80 and 13 of 176, at the end of the sixth round); the round's first half's two
/// writers reached 80 of 80 (key material, branch `cipher`) and 1 of 176 (guards, `guard`).
const BEYOND_FLOOR: Floor = Floor {
    recalled: 80,
    false_positives: 1,
};

/// The afar set, promoted to development in [15]'s seventh round's second half after its clean
/// figure (64 of 79 and 5 of 177, with the first half's rules; 62 and 6 before the round); the
/// second half's two writers reached 74 of 79 (key material, branch `lattice`) and 0 of 177
/// (guards, `sieve`, which also brought hCaptcha's secret back from the address guard).
const AFAR_FLOOR: Floor = Floor {
    recalled: 75,
    false_positives: 0,
};

/// The yonder set, promoted to development in [15]'s eighth round after its clean figures (68
/// of 81 and 4 of 206 before the round, and the same with the rules written from
/// specifications); the writer of its failing cases (branch `hither`) reached 72 and 1.
/// The anew set, promoted to development in [15]'s eighth round after its clean figure (59 of
/// 68 and 3 of 164, at the seventh round's end and again with the eighth round's rules from
/// specifications); the writer of its failing cases (branch `outlier`) reached 68 and 3.
const ANEW_FLOOR: Floor = Floor {
    recalled: 68,
    false_positives: 3,
};

const YONDER_FLOOR: Floor = Floor {
    recalled: 72,
    false_positives: 1,
};

/// The distant set, promoted to development in [15]'s ninth round after its clean figure (57 of
/// 82 and 9 of 174 before the eighth round, 58 and 9 at its end); the round's two writers of its
/// failing cases (branches `keyring`, key material, and `decoy`, guards and the rest) reached 81
/// and 5.
const DISTANT_FLOOR: Floor = Floor {
    recalled: 81,
    false_positives: 5,
};

#[test]
fn corpus_recall_and_false_positives() {
    let co = co_developed_figures();
    let held = held_out_figures(held_out());
    let packages = held_out_figures(held_out_packages());
    let samples = held_out_figures(held_out_samples());
    let fresh = held_out_figures(held_out_fresh());
    let unseen = held_out_figures(held_out_unseen());
    let sealed = held_out_figures(held_out_sealed());
    let blind = held_out_figures(held_out_blind());
    let apart = held_out_figures(held_out_apart());
    let aside = held_out_figures(held_out_aside());
    let beyond = held_out_figures(held_out_beyond());
    let afar = held_out_figures(held_out_afar());
    let anew = held_out_figures(held_out_anew());
    let yonder = held_out_figures(held_out_yonder());
    let distant = held_out_figures(held_out_distant());
    let outland = held_out_figures(held_out_outland());
    let remote = held_out_figures(held_out_remote());
    // The table of docs/redaction.md, as it stands.
    let row = |name: &str, f: &Figures| {
        format!(
            "| {name} | {} | {} / {} ({:.1} %) |",
            f.recall(),
            f.false_positives,
            f.lookalikes,
            100.0 * f.false_positives as f64 / f.lookalikes.max(1) as f64
        )
    };
    let table = [
        "| corpus | secrets redacted | look-alikes changed |".to_string(),
        "|---|---:|---:|".to_string(),
        row("co-developed (`positives.txt`, `negatives.txt`)", &co),
        row("held-out (`held-out.txt`, frozen)", &held),
        row("held-out packages (`held-out-packages.txt`, frozen)", &packages),
        row("held-out samples (`held-out-samples.txt`, frozen)", &samples),
        row("held-out fresh (`held-out-fresh.txt`, frozen)", &fresh),
        row("unseen (`held-out-unseen.txt`, tuned against since the fifth round)", &unseen),
        row("sealed (`held-out-sealed.txt`, tuned against since the fifth round)", &sealed),
        row("blind (`held-out-blind.txt`, tuned against since the fifth round's second half)", &blind),
        row("apart (`held-out-apart.txt`, tuned against since the sixth round)", &apart),
        row("aside (`held-out-aside.txt`, tuned against since the sixth round's second half)", &aside),
        row("beyond (`held-out-beyond.txt`, tuned against since the seventh round)", &beyond),
        row("afar (`held-out-afar.txt`, tuned against since the seventh round's second half)", &afar),
        row("anew (`held-out-anew.txt`, tuned against since the eighth round)", &anew),
        row("yonder (`held-out-yonder.txt`, tuned against since the eighth round)", &yonder),
        row("distant (`held-out-distant.txt`, tuned against since the ninth round)", &distant),
        row("held-out outland (`held-out-outland.txt`, frozen)", &outland),
        row("held-out remote (`held-out-remote.txt`, frozen)", &remote),
    ]
    .join("\n");
    let _ = writeln!(std::io::stderr(), "\n{table}");
    // docs/redaction.md's table is this one, figure for figure (the corpora are fixed, so are
    // the figures); `DOCS_WRITE=1` writes it there.
    let doc = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/redaction.md");
    let text = std::fs::read_to_string(doc).unwrap_or_default();
    let (open, close) = ("<!-- measured: redaction -->\n", "\n<!-- /measured -->");
    let at = text.find(open).map(|a| a + open.len());
    let end = at.and_then(|a| text.get(a..)?.find(close).map(|e| a + e));
    let (Some(at), Some(end)) = (at, end) else { panic!("{doc} has no table between {open:?} and {close:?}") };
    if std::env::var_os("DOCS_WRITE").is_some() {
        std::fs::write(doc, format!("{}{table}{}", &text[..at], &text[end..])).unwrap();
    } else {
        assert_eq!(&text[at..end], table, "{doc}'s table is not what the corpora give: DOCS_WRITE=1 cargo test --test redact_corpus writes it");
    }
    assert!(
        co.failures.is_empty(),
        "{table}\n\n{}",
        co.failures.join("\n\n")
    );
    assert!(
        held.recalled >= HELD_OUT_FLOOR.recalled
            && held.false_positives <= HELD_OUT_FLOOR.false_positives,
        "{table}\n\nthe held-out corpus fell below its floor (recall {} of {}, false \
         positives at most {}): a rule change lost what the rules caught before",
        HELD_OUT_FLOOR.recalled,
        held.positives,
        HELD_OUT_FLOOR.false_positives
    );
    for (name, figures, floor) in [
        ("unseen", &unseen, &UNSEEN_FLOOR),
        ("sealed", &sealed, &SEALED_FLOOR),
        ("blind", &blind, &BLIND_FLOOR),
        ("apart", &apart, &APART_FLOOR),
        ("aside", &aside, &ASIDE_FLOOR),
        ("beyond", &beyond, &BEYOND_FLOOR),
        ("afar", &afar, &AFAR_FLOOR),
        ("anew", &anew, &ANEW_FLOOR),
        ("yonder", &yonder, &YONDER_FLOOR),
        ("distant", &distant, &DISTANT_FLOOR),
    ] {
        assert!(
            figures.recalled >= floor.recalled && figures.false_positives <= floor.false_positives,
            "{table}\n\nthe {name} set, tuned against since [15]'s fifth round or later, fell \
             below what the round that tuned it reached (recall {} of {}, false positives at \
             most {})",
            floor.recalled,
            figures.positives,
            floor.false_positives
        );
    }
}

/// Every held-out case says where it comes from and is either a secret or
/// a look-alike, never both.
#[test]
fn held_out_cases_are_well_formed() {
    let cases = held_out();
    assert!(cases.len() >= 200, "only {} held-out cases", cases.len());
    let packages = held_out_packages();
    assert!(
        packages.len() >= 150,
        "only {} held-out package cases",
        packages.len()
    );
    let samples = held_out_samples();
    assert!(
        samples.len() >= 300,
        "only {} held-out sample cases",
        samples.len()
    );
    let fresh = held_out_fresh();
    assert!(
        fresh.len() >= 250,
        "only {} held-out fresh cases",
        fresh.len()
    );
    let unseen = held_out_unseen();
    assert!(
        unseen.len() >= 400,
        "only {} held-out unseen cases",
        unseen.len()
    );
    let sealed = held_out_sealed();
    assert!(
        sealed.len() >= 300,
        "only {} held-out sealed cases",
        sealed.len()
    );
    let blind = held_out_blind();
    assert!(
        blind.len() >= 250,
        "only {} held-out blind cases",
        blind.len()
    );
    let apart = held_out_apart();
    assert!(
        apart.len() >= 250,
        "only {} held-out apart cases",
        apart.len()
    );
    let aside = held_out_aside();
    assert!(
        aside.len() >= 250,
        "only {} held-out aside cases",
        aside.len()
    );
    let beyond = held_out_beyond();
    assert!(
        beyond.len() >= 250,
        "only {} held-out beyond cases",
        beyond.len()
    );
    let afar = held_out_afar();
    assert!(afar.len() >= 250, "only {} held-out afar cases", afar.len());
    let anew = held_out_anew();
    assert!(anew.len() >= 230, "only {} held-out anew cases", anew.len());
    let yonder = held_out_yonder();
    assert!(yonder.len() >= 280, "only {} held-out yonder cases", yonder.len());
    let distant = held_out_distant();
    assert!(distant.len() >= 250, "only {} held-out distant cases", distant.len());
    let outland = held_out_outland();
    assert!(outland.len() >= 250, "only {} held-out outland cases", outland.len());
    let remote = held_out_remote();
    assert!(remote.len() >= 250, "only {} held-out remote cases", remote.len());
    for (i, case) in cases
        .iter()
        .chain(&packages)
        .chain(&samples)
        .chain(&fresh)
        .chain(&unseen)
        .chain(&sealed)
        .chain(&blind)
        .chain(&apart)
        .chain(&aside)
        .chain(&beyond)
        .chain(&afar)
        .chain(&anew)
        .chain(&yonder)
        .chain(&distant)
        .chain(&outland)
        .chain(&remote)
        .enumerate()
    {
        assert_eq!(
            case.values("source").len(),
            1,
            "held-out #{} needs one `# source:`",
            i + 1
        );
        let secret = !case.values("secret").is_empty();
        let lookalike = !case.values("lookalike").is_empty();
        assert!(
            secret != lookalike,
            "held-out #{} must be a secret or a look-alike",
            i + 1
        );
        for s in case.values("secret") {
            assert!(
                case.text.contains(s.as_str()),
                "held-out #{}: secret {s:?} is not in the text",
                i + 1
            );
        }
    }
}

#[test]
fn every_listed_kind_is_exercised_by_the_corpus() {
    let corpus: Vec<String> = positives().iter().flat_map(|c| c.values("kind")).collect();
    for kind in rule_kinds() {
        assert!(
            corpus.iter().any(|k| k == kind),
            "no positive case of kind {kind}"
        );
    }
}

#[test]
fn redacting_the_corpus_twice_changes_nothing_more() {
    for case in positives() {
        let once = redact(&case.text).into_owned();
        let (twice, count) = redact_counted(&once);
        assert_eq!(count, 0, "second pass redacted again:\n{once}");
        assert_eq!(twice, once);
    }
}

/// Session-like filler: a transcript line of prose, a code block, shell
/// output and a usage record, the bulk of what a real session holds.
const FILLER: &str = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"I looked at the failing test. The parser passes the token stream to the next stage before the buffer is flushed, so the last line is lost when the input has no trailing newline. I will move the flush into the loop and add a regression test; the secret store and the password prompt are not involved."}],"usage":{"input_tokens":2048,"cache_read_input_tokens":40960,"output_tokens":311}}}
```rust
fn flush_lines(buf: &mut Vec<u8>, out: &mut Vec<String>) -> Result<usize, ParseError> {
    let mut count = 0;
    while let Some(pos) = buf.iter().position(|b| *b == b'\n') {
        let line: Vec<u8> = buf.drain(..=pos).collect();
        out.push(String::from_utf8_lossy(&line).trim_end().to_string());
        count += 1;
    }
    Ok(count)
}
```
$ cargo test -p parser 2>&1 | tail -5
test tokenizer::tests::handles_crlf ... ok
test tokenizer::tests::keeps_unicode_identifiers ... ok
test result: ok. 42 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s
$ git log --oneline -3
9f1c2ab fix(parser): flush the last line without a trailing newline
4e07d19 docs: explain the auth flow and token refresh
b7aa310 chore: bump serde to 1.0.229 (https://github.com/serde-rs/serde/releases)
"#;

fn throughput(label: &str, text: &str) -> f64 {
    use std::time::Instant;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        let (out, _) = redact_counted(text);
        best = best.min(t.elapsed().as_secs_f64());
        assert!(!out.is_empty());
    }
    let mb = text.len() as f64 / (1 << 20) as f64;
    let count = redact_counted(text).1;
    let _ = writeln!(
        std::io::stderr(),
        "redaction: {label}: {mb:.1} MB, {count} redactions, {:.0} ms = {:.0} MB/s",
        best * 1e3,
        mb / best
    );
    mb / best
}

/// Compile time and throughput on ~24 MB texts. Numbers only, no timed
/// assertion. Run alone, in release, so the first call pays the compile:
/// `cargo test --release --test redact_corpus -- --ignored`
#[test]
#[ignore]
fn throughput_on_24_mb() {
    use std::time::Instant;

    let t0 = Instant::now();
    let _ = redact("warm-up");
    let _ = writeln!(
        std::io::stderr(),
        "redaction: first call (builds the matcher) {:.2} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );

    let positives = positives();
    let negatives = negatives();
    let size = 24 << 20;

    // Session-like: mostly filler, a look-alike every ~25 KB, a secret every ~100 KB.
    let mut session = String::with_capacity(size + (1 << 20));
    let (mut n, mut p, mut blocks) = (0, 0, 0usize);
    while session.len() < size {
        session.push_str(FILLER);
        blocks += 1;
        if blocks % 16 == 0 {
            session.push_str(&negatives[n % negatives.len()].text);
            session.push('\n');
            n += 1;
        }
        if blocks % 64 == 0 {
            session.push_str(&positives[p % positives.len()].text);
            session.push('\n');
            p += 1;
        }
    }
    throughput("session-like text", &session);

    // Worst case: nothing but look-alikes and secrets, dense in key words.
    let mut dense = String::with_capacity(size + (1 << 20));
    let (mut n, mut p) = (0, 0);
    while dense.len() < size {
        for _ in 0..8 {
            dense.push_str(&negatives[n % negatives.len()].text);
            dense.push('\n');
            n += 1;
        }
        dense.push_str(&positives[p % positives.len()].text);
        dense.push('\n');
        p += 1;
    }
    throughput("corpus only (dense)", &dense);

    // The common case: nothing to redact, so nothing is allocated.
    let clean = FILLER.repeat(size / FILLER.len());
    let (out, count) = redact_counted(&clean);
    assert_eq!(count, 0);
    assert!(matches!(out, std::borrow::Cow::Borrowed(_)));
    throughput("filler only (no secrets)", &clean);
}

/// Redactions in the real transcripts that are true secrets, each with the
/// file it is in and why it is one. The transcripts come from public
/// repositories and hold no live credentials, so this is empty: a redaction
/// there is a false positive unless it is listed here.
const KNOWN_TRUE_SECRETS: &[(&str, &str)] = &[];

/// `../shared/real-transcripts/` beside the repository (CI has `shared/`
/// there too), if present.
fn real_transcripts_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("real-transcripts");
    dir.is_dir().then_some(dir)
}

fn jsonl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            jsonl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

/// Every string value in a JSON document (object keys are names, not
/// content), in document order.
fn strings_of<'v>(value: &'v serde_json::Value, out: &mut Vec<&'v str>) {
    match value {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

/// `text[start..end]` widened by `chars` characters each side, on one line.
fn in_context(text: &str, start: usize, end: usize, chars: usize) -> String {
    let before: String = {
        let head = text.get(..start).unwrap_or("");
        let n = head.chars().count().saturating_sub(chars);
        head.chars().skip(n).collect()
    };
    let after: String = text.get(end..).unwrap_or("").chars().take(chars).collect();
    let secret = text.get(start..end).unwrap_or("");
    format!("{before}⟦{secret}⟧{after}")
        .escape_debug()
        .to_string()
}

/// Redaction over the real transcripts: each line of each `.jsonl` file is
/// parsed as JSON and every string value in it is redacted as decoded text
/// (what the hooks redact: message text, tool inputs and results), and the
/// raw line as it stands (what the recall module redacts before parsing). Every
/// redaction is printed with 40 characters of context each side.
#[test]
fn real_transcripts_have_no_false_redactions() {
    let mut err = std::io::stderr();
    let Some(dir) = real_transcripts_dir() else {
        let _ = writeln!(
            err,
            "\nredaction on real transcripts: SKIPPED, ../shared/real-transcripts/ is not \
             beside the repository ({})",
            env!("CARGO_MANIFEST_DIR")
        );
        return;
    };
    let mut files = Vec::new();
    jsonl_files(&dir, &mut files);
    assert!(!files.is_empty(), "no .jsonl file under {}", dir.display());

    let (mut bytes, mut strings, mut raw_lines) = (0usize, 0usize, 0usize);
    let mut found = Vec::new();
    let mut false_ones = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        bytes += text.len();
        for (n, line) in text.lines().enumerate() {
            let parsed: Option<serde_json::Value> = serde_json::from_str(line).ok();
            let mut texts = Vec::new();
            match &parsed {
                // The decoded strings (what the hooks redact), and the raw line too: the
                // recall module redacts every raw line before it parses it.
                Some(value) => {
                    strings_of(value, &mut texts);
                    texts.push(line);
                }
                None => {
                    raw_lines += 1;
                    texts.push(line);
                }
            }
            strings += texts.len();
            for t in texts {
                for r in redactions(t) {
                    let secret = t.get(r.start..r.end).unwrap_or("");
                    let shown = format!(
                        "{name}:{} [{}] {}",
                        n + 1,
                        r.kind,
                        in_context(t, r.start, r.end, 40)
                    );
                    if !KNOWN_TRUE_SECRETS
                        .iter()
                        .any(|(file, s)| *file == name && *s == secret)
                    {
                        false_ones.push(shown.clone());
                    }
                    found.push(shown);
                }
            }
        }
    }
    let _ = writeln!(
        err,
        "\nredaction on real transcripts: {} files, {:.1} MB, {strings} strings and raw \
         lines ({raw_lines} lines not JSON): {} redactions, {} not known secrets",
        files.len(),
        bytes as f64 / (1 << 20) as f64,
        found.len(),
        false_ones.len()
    );
    for shown in &found {
        let _ = writeln!(err, "  {shown}");
    }
    assert!(
        false_ones.is_empty(),
        "{} redactions in public transcripts that are no known secret:\n{}",
        false_ones.len(),
        false_ones.join("\n")
    );
}

/// Every rule of gitleaks' default configuration (v8.30, 222 rules) and what covers it here:
/// a kind of the provider table or of a rule read by hand; `id` for ids and public keys, which
/// are no credentials; `file` for a rule on file names (PKCS#12), which has no text to redact.
#[rustfmt::skip]
const GITLEAKS_RULES: &[(&str, &str)] = &[
    ("1password-secret-key", "1password-secret-key"),
    ("1password-service-account-token", "1password-token"),
    ("adafruit-api-key", "adafruit-key"),
    ("adobe-client-id", "id"),
    ("adobe-client-secret", "adobe-client-secret"),
    ("age-secret-key", "age-secret-key"),
    ("airtable-api-key", "airtable-key"),
    ("airtable-personnal-access-token", "airtable-token"),
    ("algolia-api-key", "algolia-key"),
    ("alibaba-access-key-id", "alibaba-access-key-id"),
    ("alibaba-secret-key", "alibaba-secret-key"),
    ("anthropic-admin-api-key", "anthropic-key"),
    ("anthropic-api-key", "anthropic-key"),
    ("artifactory-api-key", "artifactory-key"),
    ("artifactory-reference-token", "artifactory-key"),
    ("asana-client-id", "id"),
    ("asana-client-secret", "asana-secret"),
    ("atlassian-api-token", "atlassian-token"),
    ("authress-service-client-access-key", "authress-key"),
    ("aws-access-token", "aws-access-key-id"),
    ("aws-amazon-bedrock-api-key-long-lived", "aws-bedrock-key"),
    ("aws-amazon-bedrock-api-key-short-lived", "aws-bedrock-key"),
    ("azure-ad-client-secret", "azure-client-secret"),
    ("beamer-api-token", "beamer-token"),
    ("bitbucket-client-id", "id"),
    ("bitbucket-client-secret", "bitbucket-secret"),
    ("bittrex-access-key", "bittrex-key"),
    ("bittrex-secret-key", "bittrex-key"),
    ("cisco-meraki-api-key", "meraki-key"),
    ("clickhouse-cloud-api-secret-key", "clickhouse-key"),
    ("clojars-api-token", "clojars-token"),
    ("cloudflare-api-key", "cloudflare-api-token"),
    ("cloudflare-global-api-key", "cloudflare-global-api-key"),
    ("cloudflare-origin-ca-key", "cloudflare-origin-ca-key"),
    ("codecov-access-token", "codecov-token"),
    ("cohere-api-token", "cohere-key"),
    ("coinbase-access-token", "coinbase-token"),
    ("confluent-access-token", "confluent-key"),
    ("confluent-secret-key", "confluent-key"),
    ("contentful-delivery-api-token", "contentful-token"),
    ("curl-auth-header", "authorization"),
    ("curl-auth-user", "password-assignment"),
    ("databricks-api-token", "databricks-token"),
    ("datadog-access-token", "datadog-key"),
    ("defined-networking-api-token", "defined-networking-token"),
    ("digitalocean-access-token", "digitalocean-token"),
    ("digitalocean-pat", "digitalocean-token"),
    ("digitalocean-refresh-token", "digitalocean-token"),
    ("discord-api-token", "discord-token"),
    ("discord-client-id", "id"),
    ("discord-client-secret", "discord-secret"),
    ("doppler-api-token", "doppler-token"),
    ("droneci-access-token", "droneci-token"),
    ("dropbox-api-token", "dropbox-token"),
    ("dropbox-long-lived-api-token", "dropbox-token"),
    ("dropbox-short-lived-api-token", "dropbox-token"),
    ("duffel-api-token", "duffel-token"),
    ("dynatrace-api-token", "dynatrace-token"),
    ("easypost-api-token", "easypost-token"),
    ("easypost-test-api-token", "easypost-token"),
    ("etsy-access-token", "etsy-token"),
    ("facebook-access-token", "facebook-token"),
    ("facebook-page-access-token", "facebook-token"),
    ("facebook-secret", "facebook-secret"),
    ("fastly-api-token", "fastly-token"),
    ("finicity-api-token", "finicity-secret"),
    ("finicity-client-secret", "finicity-secret"),
    ("finnhub-access-token", "finnhub-token"),
    ("flickr-access-token", "flickr-token"),
    ("flutterwave-encryption-key", "flutterwave-key"),
    ("flutterwave-public-key", "id"),
    ("flutterwave-secret-key", "flutterwave-key"),
    ("flyio-access-token", "fly-token"),
    ("frameio-api-token", "frameio-token"),
    ("freemius-secret-key", "secret-assignment"),
    ("freshbooks-access-token", "freshbooks-token"),
    ("gcp-api-key", "google-api-key"),
    ("generic-api-key", "secret-assignment"),
    ("github-app-token", "github-token"),
    ("github-fine-grained-pat", "github-token"),
    ("github-oauth", "github-token"),
    ("github-pat", "github-token"),
    ("github-refresh-token", "github-token"),
    ("gitlab-cicd-job-token", "gitlab-token"),
    ("gitlab-deploy-token", "gitlab-token"),
    ("gitlab-feature-flag-client-token", "gitlab-token"),
    ("gitlab-feed-token", "gitlab-token"),
    ("gitlab-incoming-mail-token", "gitlab-token"),
    ("gitlab-kubernetes-agent-token", "gitlab-token"),
    ("gitlab-oauth-app-secret", "gitlab-token"),
    ("gitlab-pat", "gitlab-token"),
    ("gitlab-pat-routable", "gitlab-token"),
    ("gitlab-ptt", "gitlab-token"),
    ("gitlab-rrt", "gitlab-token"),
    ("gitlab-runner-authentication-token", "gitlab-token"),
    ("gitlab-runner-authentication-token-routable", "gitlab-token"),
    ("gitlab-scim-token", "gitlab-token"),
    ("gitlab-session-cookie", "gitlab-session"),
    ("gitter-access-token", "gitter-token"),
    ("gocardless-api-token", "gocardless-token"),
    ("grafana-api-key", "grafana-key"),
    ("grafana-cloud-api-token", "grafana-token"),
    ("grafana-service-account-token", "grafana-token"),
    ("harness-api-key", "harness-token"),
    ("hashicorp-tf-api-token", "terraform-token"),
    ("hashicorp-tf-password", "password-assignment"),
    ("heroku-api-key", "heroku-api-key"),
    ("heroku-api-key-v2", "heroku-api-key"),
    ("hubspot-api-key", "hubspot-key"),
    ("huggingface-access-token", "huggingface-token"),
    ("huggingface-organization-api-token", "huggingface-token"),
    ("infracost-api-token", "infracost-token"),
    ("intercom-api-key", "intercom-key"),
    ("intra42-client-secret", "intra42-secret"),
    ("jfrog-api-key", "jfrog-key"),
    ("jfrog-identity-token", "jfrog-key"),
    ("jwt", "jwt"),
    ("jwt-base64", "jwt"),
    ("kraken-access-token", "kraken-token"),
    ("kubernetes-secret-yaml", "secret-assignment"),
    ("kucoin-access-token", "kucoin-key"),
    ("kucoin-secret-key", "kucoin-secret"),
    ("launchdarkly-access-token", "launchdarkly-token"),
    ("linear-api-key", "linear-key"),
    ("linear-client-secret", "linear-secret"),
    ("linkedin-client-id", "id"),
    ("linkedin-client-secret", "linkedin-secret"),
    ("lob-api-key", "lob-key"),
    ("lob-pub-api-key", "id"),
    ("looker-client-id", "id"),
    ("looker-client-secret", "looker-secret"),
    ("mailchimp-api-key", "mailchimp-key"),
    ("mailgun-private-api-token", "mailgun-key"),
    ("mailgun-pub-key", "id"),
    ("mailgun-signing-key", "mailgun-key"),
    ("mapbox-api-token", "mapbox-token"),
    ("mattermost-access-token", "mattermost-token"),
    ("maxmind-license-key", "maxmind-key"),
    ("messagebird-api-token", "messagebird-key"),
    ("messagebird-client-id", "id"),
    ("microsoft-teams-webhook", "teams-webhook"),
    ("netlify-access-token", "netlify-token"),
    ("new-relic-browser-api-token", "id"),
    ("new-relic-insert-key", "new-relic-key"),
    ("new-relic-user-api-id", "id"),
    ("new-relic-user-api-key", "new-relic-key"),
    ("notion-api-token", "notion-token"),
    ("npm-access-token", "npm-token"),
    ("nuget-config-password", "password-assignment"),
    ("nytimes-access-token", "nytimes-token"),
    ("octopus-deploy-api-key", "octopus-deploy-key"),
    ("okta-access-token", "okta-token"),
    ("openai-api-key", "openai-key"),
    ("openshift-user-token", "openshift-token"),
    ("perplexity-api-key", "perplexity-key"),
    ("pkcs12-file", "file"),
    ("plaid-api-token", "plaid-token"),
    ("plaid-client-id", "id"),
    ("plaid-secret-key", "plaid-secret"),
    ("planetscale-api-token", "planetscale-token"),
    ("planetscale-oauth-token", "planetscale-token"),
    ("planetscale-password", "planetscale-token"),
    ("postman-api-token", "postman-token"),
    ("prefect-api-token", "prefect-token"),
    ("private-key", "private-key"),
    ("privateai-api-token", "privateai-key"),
    ("pulumi-api-token", "pulumi-token"),
    ("pypi-upload-token", "pypi-token"),
    ("rapidapi-access-token", "rapidapi-key"),
    ("readme-api-token", "readme-token"),
    ("rubygems-api-token", "rubygems-token"),
    ("scalingo-api-token", "scalingo-token"),
    ("sendbird-access-id", "id"),
    ("sendbird-access-token", "sendbird-token"),
    ("sendgrid-api-token", "sendgrid-key"),
    ("sendinblue-api-token", "sendinblue-key"),
    ("sentry-access-token", "sentry-token"),
    ("sentry-org-token", "sentry-token"),
    ("sentry-user-token", "sentry-token"),
    ("settlemint-application-access-token", "settlemint-token"),
    ("settlemint-personal-access-token", "settlemint-token"),
    ("settlemint-service-access-token", "settlemint-token"),
    ("shippo-api-token", "shippo-token"),
    ("shopify-access-token", "shopify-token"),
    ("shopify-custom-access-token", "shopify-token"),
    ("shopify-private-app-access-token", "shopify-token"),
    ("shopify-shared-secret", "shopify-token"),
    ("sidekiq-secret", "sidekiq-secret"),
    ("sidekiq-sensitive-url", "url-credentials"),
    ("slack-app-token", "slack-token"),
    ("slack-bot-token", "slack-token"),
    ("slack-config-access-token", "slack-token"),
    ("slack-config-refresh-token", "slack-token"),
    ("slack-legacy-bot-token", "slack-token"),
    ("slack-legacy-token", "slack-token"),
    ("slack-legacy-workspace-token", "slack-token"),
    ("slack-user-token", "slack-token"),
    ("slack-webhook-url", "slack-webhook"),
    ("snyk-api-token", "snyk-token"),
    ("sonar-api-token", "sonar-token"),
    ("sourcegraph-access-token", "sourcegraph-token"),
    ("square-access-token", "square-token"),
    ("squarespace-access-token", "squarespace-token"),
    ("stripe-access-token", "stripe-key"),
    ("sumologic-access-id", "id"),
    ("sumologic-access-token", "sumologic-token"),
    ("telegram-bot-api-token", "telegram-bot-token"),
    ("travisci-access-token", "travisci-token"),
    ("twilio-api-key", "twilio-api-key"),
    ("twitch-api-token", "twitch-token"),
    ("twitter-access-secret", "twitter-secret"),
    ("twitter-access-token", "twitter-token"),
    ("twitter-api-key", "twitter-key"),
    ("twitter-api-secret", "twitter-secret"),
    ("twitter-bearer-token", "twitter-bearer-token"),
    ("typeform-api-token", "typeform-token"),
    ("vault-batch-token", "vault-token"),
    ("vault-service-token", "vault-token"),
    ("yandex-access-token", "yandex-token"),
    ("yandex-api-key", "yandex-api-key"),
    ("yandex-aws-access-token", "yandex-key"),
    ("zendesk-secret-key", "zendesk-key"),
];

/// Every credential rule of gitleaks' default configuration is covered by a kind this
/// redactor writes (the provider table's rows are each proven by their line in
/// `formats.txt`; the rules read by hand by the co-developed corpus).
#[test]
fn every_gitleaks_rule_is_covered() {
    assert_eq!(GITLEAKS_RULES.len(), 222);
    let mut ids = 0;
    for (rule, kind) in GITLEAKS_RULES {
        if matches!(*kind, "id" | "file") {
            ids += 1;
            continue;
        }
        assert!(
            kinds().contains(kind),
            "gitleaks rule {rule}: no kind {kind} here"
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "\ngitleaks' default rules: {} covered, {ids} ids, public keys or file names",
        GITLEAKS_RULES.len() - ids
    );
}
