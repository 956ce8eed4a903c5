//! The person's slash commands: `/pin`, `/unpin`, `/recall`. Registered by the
//! shim from [`specs`] (the build writes them into pkg/ as `COMMANDS`), so
//! each is in the typeahead before anything else runs: a command no hook
//! serves reaches the model as a prompt (measured on 2.1.328). Their output
//! is for the person alone (`isTextDisplayOnly`). The engine still records
//! each command's line, `<command-name>/recall</command-name> … <command-args>
//! the query</command-args>`, and sends it in later requests as a local
//! command's; no hook can drop that row (session.append relays every row of
//! door `command`), but one can rewrite its text: [`rewrite_row`] takes a
//! `/recall` query out of it and redacts a pinned text.


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
pub const SPECS: &str = r#"[{"name":"pin","description":"compact-plus: keep a text word for word after every compaction of this session; alone, list the pins","argumentHint":"[text]"},{"name":"unpin","description":"compact-plus: remove a pin (its number from /pin, or all)","argumentHint":"<n|all>"},{"name":"recall","description":"compact-plus: search this session's saved history and this project's earlier sessions; the answer is yours alone, nothing goes to the model","argumentHint":"<words>"}]"#;

const ARGS_OPEN: &str = "<command-args>";
const ARGS_CLOSE: &str = "</command-args>";

/// A command row's text as it should be kept and sent, or `None` to keep it
/// as it is: a `/recall`'s query taken out, a `/pin`'s text redacted
/// (`clean`). Every other row, and a row of another shape, is left alone.
pub fn rewrite_row(row: &str, clean: &dyn Fn(&str) -> String) -> Option<String> {
    let rest = row.trim_start().strip_prefix("<command-name>/")?;
    let name = rest.split("</command-name>").next()?;
    let command = Command::named(name)?;
    let open = row.find(ARGS_OPEN)? + ARGS_OPEN.len();
    let close = open + row.get(open..)?.find(ARGS_CLOSE)?;
    let args = row.get(open..close)?;
    let new_args = match command {
        Command::Recall => String::new(),
        Command::Pin => clean(args),
        Command::Unpin => return None,
    };
    (new_args != args).then(|| format!("{}{new_args}{}", row.get(..open).unwrap_or(""), row.get(close..).unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = "<command-name>/recall</command-name>\n            <command-message>recall</command-message>\n            <command-args>flaky parser test</command-args>";

    #[test]
    fn a_recall_row_loses_its_query_and_keeps_its_shape() {
        let out = rewrite_row(ROW, &|t| t.to_owned()).unwrap();
        assert_eq!(out, "<command-name>/recall</command-name>\n            <command-message>recall</command-message>\n            <command-args></command-args>");
        assert_eq!(rewrite_row(&out, &|t| t.to_owned()), None, "once is enough");
    }

    #[test]
    fn a_pin_row_is_redacted_and_other_rows_are_left_alone() {
        let pin = ROW.replace("recall", "pin").replace("flaky parser test", "key sk-ant-api03-SECRET");
        let out = rewrite_row(&pin, &|t| t.replace("sk-ant-api03-SECRET", "[REDACTED:anthropic-key]")).unwrap();
        assert!(out.ends_with("<command-args>key [REDACTED:anthropic-key]</command-args>"));
        assert_eq!(rewrite_row(&pin.replace("SECRET", ""), &|t| t.to_owned()), None);
        for other in [ROW.replace("recall", "compact"), ROW.replace("recall", "unpin"), "hello".into(), "<command-name>/recall</command-name>".into()] {
            assert_eq!(rewrite_row(&other, &|_| "changed".into()), None, "{other}");
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
