//! The person's slash commands: `/pin`, `/unpin`, `/recall`. Registered by the
//! shim from [`specs`] (the build writes them into pkg/ as `COMMANDS`), so
//! each is in the typeahead before anything else runs: a command no hook
//! serves reaches the model as a prompt (measured on 2.1.328). Their output
//! is for the person alone (`isTextDisplayOnly`). The engine still records
//! each command's line, `<command-name>/recall</command-name> … <command-args>
//! the query</command-args>`, and sends it in later requests as a local
//! command's; no hook can drop that row (session.append relays every row of
//! door `command`), but one can rewrite its text: [`rewrite_row`] takes the
//! `/recall` query and the `/pin` text out of it. A pin reaches the model in
//! the block after each compaction alone: where the engine sends a command's
//! line after a summary is not steady (measured), and a line holding the pin
//! would be a second copy of it there, or none where it is not sent.

use crate::engine::rows;

/// Which command a `command.run` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Pin,
    Unpin,
    Recall,
}

impl Command {
    pub fn named(name: &str) -> Option<Command> {
        match name {
            "pin" => Some(Command::Pin),
            "unpin" => Some(Command::Unpin),
            "recall" => Some(Command::Recall),
            _ => None,
        }
    }
}

/// What `$.command.register` gets, one per command (JSON).
pub const SPECS: &str = r#"[{"name":"pin","description":"compact-plus: keep a text word for word after every compaction (alone: list the pins)","argumentHint":"[text]"},{"name":"unpin","description":"compact-plus: remove a pin (its number from /pin)","argumentHint":"<n>"},{"name":"recall","description":"compact-plus: search this session's history and this project's earlier sessions, for you alone","argumentHint":"<words>"}]"#;

/// A command row's text as it should be kept and sent, or `None` to keep it
/// as it is: a `/recall`'s query and a `/pin`'s text taken out. Every other
/// row, and a row of another shape, is left alone. The row's tags are the
/// engine's (`engine::rows`).
pub fn rewrite_row(row: &str) -> Option<String> {
    let (name_open, name_close) = rows::tags(rows::COMMAND_NAME);
    let (args_open, args_close) = rows::tags(rows::COMMAND_ARGS);
    let rest = row.trim_start().strip_prefix(name_open.as_str())?.strip_prefix('/')?;
    let name = rest.split(name_close.as_str()).next()?;
    let command = Command::named(name)?;
    let open = row.find(&args_open)? + args_open.len();
    let close = open + row.get(open..)?.find(&args_close)?;
    let args = row.get(open..close)?;
    (command != Command::Unpin && !args.is_empty()).then(|| format!("{}{}", row.get(..open).unwrap_or(""), row.get(close..).unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = "<command-name>/recall</command-name>\n            <command-message>recall</command-message>\n            <command-args>flaky parser test</command-args>";

    #[test]
    fn a_recall_or_pin_row_loses_its_text_and_keeps_its_shape() {
        let out = rewrite_row(ROW).unwrap();
        assert_eq!(out, "<command-name>/recall</command-name>\n            <command-message>recall</command-message>\n            <command-args></command-args>");
        assert_eq!(rewrite_row(&out), None, "once is enough");
        let pin = ROW.replace("recall", "pin").replace("flaky parser test", "key sk-ant-api03-SECRET");
        assert!(rewrite_row(&pin).unwrap().ends_with("<command-args></command-args>"));
        for other in [ROW.replace("recall", "compact"), ROW.replace("recall", "unpin"), "hello".into(), "<command-name>/recall</command-name>".into()] {
            assert_eq!(rewrite_row(&other), None, "{other}");
        }
    }

    #[test]
    fn the_specs_name_each_command() {
        let specs: serde_json::Value = serde_json::from_str(SPECS).unwrap();
        let names: Vec<String> = specs.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_owned()).collect();
        assert_eq!(names, ["pin", "unpin", "recall"]);
        assert!(names.iter().all(|n| Command::named(n).is_some()));
    }
}
