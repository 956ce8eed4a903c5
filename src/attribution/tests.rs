use super::*;
use crate::message::parse_messages;
use serde_json::{json, Value};

fn session(rows: Value) -> Messages {
    parse_messages(&rows.to_string())
}

fn convo() -> Messages {
    session(json!([
        {"role": "user", "text": "Implement the following plan:\n\n# Plan: Tree View\n\n## Context\nThe tab lists files flat."},
        {"role": "assistant", "text": "On it.", "toolUses": [
            {"tool": "Bash", "input": {"command": "git push"}, "isError": true,
             "text": "The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\nno don't push yet, run the tests first"}]},
        {"role": "user", "text": "<command-name>/model</command-name>\n<command-args></command-args>"},
        {"role": "user", "text": "<system-reminder>x</system-reminder>Make these two button \"List / Tree\" more visible, on the left side"},
        {"role": "user", "text": "Seems to work but I've plenty of warning in the console:\nWarning: two children with the same key"},
    ]))
}

#[test]
fn what_the_person_said() {
    let s = said(&convo());
    let got: Vec<(usize, &str)> = s.iter().map(|x| (x.number, x.text.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (0, "Implement the following plan:\n\n# Plan: Tree View\n\n## Context\nThe tab lists files flat."),
            (1, "no don't push yet, run the tests first"),
            (2, "/model"),
            (3, "Make these two button \"List / Tree\" more visible, on the left side"),
            (4, "Seems to work but I've plenty of warning in the console:\nWarning: two children with the same key"),
        ]
    );
    assert!(s.iter().all(|x| x.origin == Origin::Person));
}

const REAL_SHAPE: &str = "Summary:\n1. Primary Request and Intent:\n   The user asked to implement the \"Plan: Tree View\" and later said \"Make these two button 'List / Tree' more visible\".\n\n6. All user messages:\n   - **Message 1**: \"Implement the following plan: [detailed Tree View plan with 6 steps]\"\n   - \"no don't push yet, run the tests first\" (rejecting the push)\n   - **Message 2**: \"/model\" (a command)\n   - **Message 3**: \"Make these two button 'List / Tree' more visible, on the left side\"\n   - **Message 4**: \"Seems to work but I've plenty of warning in the console:\" - with warnings\n\n7. Pending Tasks:\n   - none";

#[test]
fn a_faithful_summary_is_not_flagged() {
    let c = check(REAL_SHAPE, &said(&convo()));
    assert_eq!(c.flags, vec![]);
    assert_eq!((c.passages, c.before), (7, 0));
    assert_eq!(render(&c.flags, &|t| t.to_owned()), None);
}

#[test]
fn invented_and_turned_requests_are_flagged_with_the_nearest_message() {
    let s = REAL_SHAPE
        .replace("no don't push yet", "push now")
        .replace("   - **Message 4**", "   - \"Also delete the old migrations folder before you commit\"\n   - **Message 4**")
        .replace("The user asked", "The user also asked: \"rewrite the parser in Go\". The user asked");
    let c = check(&s, &said(&convo()));
    let flagged: Vec<&str> = c.flags.iter().map(|f| f.passage.as_str()).collect();
    assert_eq!(flagged, vec!["rewrite the parser in Go", "push now, run the tests first", "Also delete the old migrations folder before you commit"]);
    assert_eq!(c.flags.get(1).and_then(|f| f.nearest.as_ref()).map(|n| n.0), Some(1), "the rejection is the nearest");
    let r = render(&c.flags, &|t| t.to_owned()).unwrap_or_default();
    assert!(r.starts_with(HEAD));
    assert!(r.contains("\n- \"push now, run the tests first\" (nearest: [1] \"no don't push yet, run the tests first\")"), "{r}");
    assert_eq!(r.lines().count(), 4);
}

#[test]
fn the_list_before_the_first_message_is_older_than_the_conversation() {
    // A transcript that starts mid-session: the summary lists messages the hook never saw.
    let m = session(json!([
        {"role": "user", "text": "let's stash and get the latest updates"},
        {"role": "user", "text": "let's go with option 1"},
    ]));
    let s = "6. All user messages:\n   - \"okay, let's continue with this\"\n   - \"where is it falling back?\"\n   - \"let's stash and get the latest updates\"\n   - \"let's go with option 1\"\n   - \"and delete the branch afterwards please\"\n\n7. Pending";
    let c = check(s, &said(&m));
    assert_eq!((c.passages, c.before), (3, 2));
    assert_eq!(c.flags.iter().map(|f| f.passage.as_str()).collect::<Vec<_>>(), vec!["and delete the branch afterwards please"]);
    // The first message turned still anchors the list, and is flagged.
    let turned = s.replace("- \"let's stash", "- \"let's not stash");
    let c = check(&turned, &said(&m));
    assert_eq!(c.before, 2);
    assert!(c.flags.iter().any(|f| f.passage.starts_with("let's not stash")));
}

#[test]
fn an_earlier_summary_is_a_source_but_no_anchor() {
    let m = session(json!([
        {"role": "user", "text": "This session is being continued from a previous conversation. Summary: 6. All user messages: - \"keep the API stable\""},
        {"role": "user", "text": "now add the tests"},
    ]));
    let c = check("6. All user messages:\n   - \"keep the API stable\"\n   - \"now add the tests\"\n\n7. x", &said(&m));
    assert_eq!((c.passages, c.before, c.flags.len()), (2, 0, 0));
}

#[test]
fn bounded_and_odd_input() {
    assert_eq!(check("", &[]), Checked::default());
    let c = check("6. All user messages:\n - \"do the thing now please\"\n", &[]);
    assert_eq!(c.flags.first().map(|f| f.nearest.clone()), Some(None));
    assert!(render(&c.flags, &|t| t.to_owned()).is_some_and(|r| r.contains("(no message of the user's)")));
    let many: String = (0..50).map(|i| format!(" - \"invented request number {i} about zebras\"\n")).collect();
    let c = check(&format!("6. All user messages:\n{many}"), &said(&convo()));
    assert_eq!(c.flags.len(), 50);
    let r = render(&c.flags, &|t| t.to_owned()).unwrap_or_default();
    assert_eq!(r.lines().count(), 1 + MAX_FLAGS + 1);
    assert!(r.ends_with("- … and 42 more"));
    let long = session(json!([{"role": "user", "text": "w ".repeat(100_000)}]));
    assert!(said(&long).first().is_some_and(|s| text::len16(&s.text) <= SAID_CHARS));
}

#[test]
fn flags_are_redacted_before_they_are_cut() {
    const TOKEN: &str = "ghp_8fK2mQx9TzL4vB7nR1wY5cJ3hD6sG0aPeU2i";
    let clean = |t: &str| t.replace(TOKEN, "[REDACTED:github]");
    let long = format!("{} {TOKEN} {}", "word ".repeat(20), "more ".repeat(30));
    let flags = vec![Flag { passage: long.clone(), nearest: Some((3, long)) }];
    let r = render(&flags, &clean).unwrap_or_default();
    assert!(!r.contains(&TOKEN[..10]) && !r.contains(&TOKEN[TOKEN.len() - 10..]), "{r}");
}
