//! The search of this session's history parts, as the core writes them.

    use super::search_files as search;
    use super::HistoryScan;
    use crate::terms::Terms;
    use compact_plus::recall_tool::{Query, Role, DEFAULT_LIMIT, MAX_LIMIT};
    use crate::text::{LINE_CHARS, MAX_ANSWER};

    // ---- histories as `history::render` writes them ----

    struct Tool {
        name: &'static str,
        error: bool,
        input: String,
        result: Option<String>,
    }

    struct Msg {
        n: usize,
        role: &'static str,
        text: String,
        tools: Vec<Tool>,
    }

    fn user(n: usize, text: &str) -> Msg {
        Msg { n, role: "user", text: text.into(), tools: vec![] }
    }

    fn assistant(n: usize, text: &str, tools: Vec<Tool>) -> Msg {
        Msg { n, role: "assistant", text: text.into(), tools }
    }

    fn bash(command: &str, result: &str) -> Tool {
        Tool {
            name: "Bash",
            error: false,
            input: format!("{{\"command\":\"{command}\"}}"),
            result: Some(result.into()),
        }
    }

    fn header(title: &str, count: usize, trigger: &str) -> Vec<String> {
        vec![
            title.into(),
            String::new(),
            format!("Session s-1, compacted 2026-11-29T23:27:01.000Z ({trigger}), {count} messages. Written by the compact-plus mod."),
            "Each message starts with a \"## [n] role\" line; tool calls follow as \"### tool <name>\" with their input and result (long results cut; the .jsonl transcript has everything).".into(),
            String::new(),
        ]
    }

    fn message_lines(m: &Msg, out: &mut Vec<String>) {
        out.push(format!("## [{}] {}", m.n, m.role));
        out.push(String::new());
        if !m.text.is_empty() {
            out.push(m.text.clone());
            out.push(String::new());
        }
        for t in &m.tools {
            let error = if t.error { " (error)" } else { "" };
            out.push(format!("### tool {}{error}", t.name));
            out.push(format!("input: {}", t.input));
            if let Some(r) = &t.result {
                out.push("result:".into());
                out.push(r.clone());
            }
            out.push(String::new());
        }
    }

    fn render_history(msgs: &[Msg], trigger: &str) -> String {
        let mut out = header("# Conversation before compaction", msgs.len(), trigger);
        for m in msgs {
            message_lines(m, &mut out);
        }
        out.join("\n")
    }

    fn file(name: &str, text: String) -> (String, String) {
        (format!("/home/u/.claude/compact-history/s-1/{name}"), text)
    }

    fn q(text: &str) -> Query {
        Query { text: text.into(), regex: false, role: None, limit: DEFAULT_LIMIT }
    }

    fn units(s: &str) -> usize {
        s.encode_utf16().count()
    }

    /// The number in the answer's first line before `word`.
    fn count_before(answer: &str, word: &str) -> usize {
        let first = answer.lines().next().unwrap_or("");
        let words: Vec<&str> = first.split_whitespace().collect();
        let at = words.iter().position(|w| w.trim_end_matches(',').starts_with(word)).expect("word in first line");
        words[at - 1].parse().expect("a count")
    }

    /// The `[n] role` of each excerpt, in order.
    fn excerpt_heads(answer: &str) -> Vec<String> {
        answer
            .lines()
            .filter(|l| l.starts_with("── "))
            .map(|l| {
                let parts: Vec<&str> = l.split(" · ").collect();
                format!("{} {}", parts[0].trim_start_matches("── "), parts[2])
            })
            .collect()
    }

    // ---- input ----


    // ---- bad queries answer, never fail ----

    #[test]
    fn a_bad_regex_answers_an_error_text() {
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&[user(0, "hello")], "manual"))];
        let rq = |t: &str| Query { regex: true, ..q(t) };
        let unclosed = search(&files, &rq("(unclosed"));
        assert!(unclosed.starts_with("recall: the regex does not parse"), "{unclosed}");
        assert!(unclosed.contains("unclosed group"), "{unclosed}");
        let huge = search(&files, &rq(r"\w{500}{500}"));
        assert!(huge.starts_with("recall: the regex is too large"), "{huge}");
        let deep = search(&files, &rq(&format!("{}a{}", "(".repeat(200), ")".repeat(200))));
        assert!(deep.starts_with("recall: "), "{deep}");
        let empty = search(&files, &rq("x*"));
        assert!(empty.starts_with("recall: the regex matches empty text"), "{empty}");
        // A property this build has no tables for is a parse error, not a panic
        // (in a workspace test build another crate may switch the tables on).
        let greek = search(&files, &rq(r"\p{Greek}"));
        assert!(greek.starts_with("recall: the regex does not parse") || greek.starts_with("recall: no hits"), "{greek}");
        // An empty-width pattern that does not match "" finds nothing, quietly.
        assert!(search(&files, &rq(r"\b")).starts_with("recall: no hits"));
    }

    #[test]
    fn no_files_and_no_hits_say_so() {
        assert!(search(&[], &q("x")).starts_with("recall: no history files"));
        let log = ("/h/s/log.jsonl".to_string(), "{\"x\":\"zebra\"}".to_string());
        assert!(search(std::slice::from_ref(&log), &q("zebra")).starts_with("recall: no history files"));
        let files = [log, file("2026-11-29T232701Z-manual.md", render_history(&[user(0, "hello")], "manual"))];
        let none = search(&files, &q("zebra"));
        assert!(none.starts_with("recall: no hits for \"zebra\""), "{none}");
        assert!(none.contains("in 1 file of 1 compaction"), "{none}");
    }

    // ---- reading the format ----

    #[test]
    fn headers_and_headings_are_not_searched() {
        let text = render_history(&[user(0, "about the mod"), assistant(1, "ok", vec![])], "manual");
        let files = [file("2026-11-29T232701Z-manual.md", text)];
        // "compaction", "Session", "messages" and the roles only appear in the
        // header and the headings.
        for word in ["compaction", "session", "messages", "user", "assistant", "role"] {
            assert!(search(&files, &q(word)).starts_with("recall: no hits"), "{word}");
        }
        let a = search(&files, &q("mod"));
        assert_eq!(count_before(&a, "hit"), 1, "{a}");
    }

    #[test]
    fn roles_filter_messages_and_tool_sections() {
        let msgs = [
            user(0, "the zebra is in the user text"),
            assistant(1, "the assistant says zebra", vec![bash("grep zebra", "zebra.txt:1: zebra")]),
            user(2, "zebra again"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let role = |r: Role| Query { role: Some(r), ..q("zebra") };
        let all = search(&files, &q("zebra"));
        assert_eq!(count_before(&all, "hit"), 6, "{all}");
        let u = search(&files, &role(Role::User));
        assert_eq!(count_before(&u, "hit"), 2, "{u}");
        assert_eq!(excerpt_heads(&u).len(), 2);
        assert!(excerpt_heads(&u).iter().all(|h| h.contains("user")), "{u}");
        let a = search(&files, &role(Role::Assistant));
        assert_eq!(count_before(&a, "hit"), 1, "{a}");
        let t = search(&files, &role(Role::Tool));
        assert_eq!(count_before(&t, "hit"), 3, "{t}");
        assert!(t.contains("[1] assistant · tool Bash · 3 hits"), "{t}");
        // The tool's name is found on its heading line.
        let named = search(&files, &Query { role: Some(Role::Tool), ..q("bash") });
        assert_eq!(count_before(&named, "hit"), 1, "{named}");
    }

    #[test]
    fn a_message_continued_in_the_next_part_is_one_message() {
        let mut one = header("# Conversation before compaction, part 1 of 2", 8, "auto");
        one.extend(
            ["## [6] user", "", "run it", "", "## [7] assistant", "", "Running.", "", "### tool Bash (error)"]
                .map(String::from),
        );
        one.extend(
            ["input: {\"command\":\"make\"}", "result:", "cc -c a.c", "a.c:1: warning: ostrich"].map(String::from),
        );
        let mut two = header("# Conversation before compaction, part 2 of 2", 8, "auto");
        two.extend(
            ["## [7] assistant (continued)", "", "a.c:9: error: ostrich undeclared", "make: *** [a.o] Error 1", ""]
                .map(String::from),
        );
        two.extend(["## [8] user", "", "ostrich? really", ""].map(String::from));
        let files = [
            file("2026-11-29T232701Z-auto.part2.md", two.join("\n")),
            file("2026-11-29T232701Z-auto.md", one.join("\n")),
        ];
        let t = search(&files, &Query { role: Some(Role::Tool), ..q("ostrich") });
        // The continued lines stay inside the tool section they were cut from.
        assert_eq!(count_before(&t, "hit"), 2, "{t}");
        assert_eq!(count_before(&t, "message"), 1, "{t}");
        assert!(t.contains("[7] assistant · tool Bash (error) · 2 hits"), "{t}");
        assert!(t.contains("more hits in this message at line 2026-11-29T232701Z-auto.part2.md:8"), "{t}");
        let all = search(&files, &q("ostrich"));
        assert_eq!(count_before(&all, "hit"), 3, "{all}");
        assert_eq!(count_before(&all, "message"), 2, "{all}");
        assert_eq!(count_before(&all, "compaction"), 1, "{all}");
    }

    #[test]
    fn excerpts_show_context_inside_the_message_with_line_numbers() {
        let msgs = [
            user(0, "before"),
            assistant(1, "one\ntwo\nthree\nthe heron line\nfour\nfive\nsix", vec![]),
            user(2, "after"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &q("heron"));
        // Header 5 lines, `## [0] user`, blank, before, blank, `## [1] assistant`, blank, one (12).
        assert!(
            a.contains(
                "── 2026-11-29T232701Z-manual.md:15 · compaction 2026-11-29 23:27:01Z (manual) · [1] assistant · 1 hit"
            ),
            "{a}"
        );
        assert!(
            a.contains("     13 | two\n     14 | three\n>    15 | the heron line\n     16 | four\n     17 | five\n"),
            "{a}"
        );
        assert!(a.contains("The files are in /home/u/.claude/compact-history/s-1/"), "{a}");
        // The window stops at a message heading.
        let b = search(&files, &q("before"));
        assert!(b.contains(">     8 | before\n"), "{b}");
        assert!(!b.contains("## ["), "{b}");
    }

    #[test]
    fn long_lines_are_cut_around_the_hit() {
        let long = format!("{}needle{}", "α".repeat(4000), "ω".repeat(4000));
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&[user(0, &long)], "manual"))];
        let a = search(&files, &q("NEEDLE"));
        let line = a.lines().find(|l| l.starts_with('>')).unwrap();
        assert!(line.contains("needle"), "{line}");
        let shown = line.split(" | ").nth(1).unwrap();
        assert_eq!(shown.chars().count(), LINE_CHARS + 2, "{shown}");
        assert!(shown.starts_with('…') && shown.ends_with('…'));
    }

    #[test]
    fn paths_in_different_folders_are_shown_whole() {
        let text = render_history(&[user(0, "zebra")], "manual");
        let files = [
            ("/a/2026-11-29T232701Z-manual.md".to_string(), text.clone()),
            ("/b/2026-11-30T232701Z-manual.md".to_string(), text),
        ];
        let a = search(&files, &q("zebra"));
        assert!(a.contains("── /b/2026-11-30T232701Z-manual.md:8 "), "{a}");
        assert!(a.contains("── /a/2026-11-29T232701Z-manual.md:8 "), "{a}");
    }

    // ---- ranking ----

    #[test]
    fn more_hits_rank_first_then_newer_compactions_then_later_messages() {
        let old =
            render_history(&[user(0, "kiwi"), user(1, "kiwi kiwi kiwi"), user(2, "kiwi"), user(3, "kiwi")], "manual");
        let new = render_history(&[user(0, "kiwi"), user(1, "kiwi kiwi")], "auto");
        let files = [file("2026-11-29T232701Z-manual.md", old), file("2026-11-30T080000Z-auto.md", new)];
        let heads = excerpt_heads(&search(&files, &q("kiwi")));
        assert_eq!(
            heads,
            [
                "2026-11-29T232701Z-manual.md:12 [1] user",
                "2026-11-30T080000Z-auto.md:12 [1] user",
                "2026-11-30T080000Z-auto.md:8 [0] user",
                "2026-11-29T232701Z-manual.md:20 [3] user",
                "2026-11-29T232701Z-manual.md:16 [2] user",
                "2026-11-29T232701Z-manual.md:8 [0] user",
            ]
        );
    }

    #[test]
    fn messages_with_more_of_the_words_rank_first() {
        let msgs = [user(0, "tern tern tern tern tern"), user(1, "the tern and the gannet"), user(2, "gannet gannet")];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &q("gannet TERN"));
        assert!(a.contains("1 of them hold every term"), "{a}");
        let heads = excerpt_heads(&a);
        assert!(
            heads[0].ends_with("[1] user") && heads[1].ends_with("[0] user") && heads[2].ends_with("[2] user"),
            "{a}"
        );
        // A phrase is one term.
        let p = search(&files, &q("\"the   TERN and\""));
        assert_eq!(count_before(&p, "hit"), 1, "{p}");
    }

    #[test]
    fn limit_caps_the_excerpts_not_the_count() {
        let msgs: Vec<Msg> = (0..30).map(|n| user(n, "plover")).collect();
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &Query { limit: 3, ..q("plover") });
        assert_eq!(count_before(&a, "hit"), 30);
        assert_eq!(excerpt_heads(&a).len(), 3);
        assert!(a.contains("27 more messages with hits not shown (limit 3)"), "{a}");
    }

    // ---- Unicode ----

    #[test]
    fn non_ascii_text_is_found_in_any_case() {
        let msgs = [
            user(0, "日本語のテキストを検索する 🚀 rocket"),
            user(1, "Der ÄRGER mit Umlauten; ΣΊΣΥΦΟΣ"),
            user(2, "\u{212A}elvin and ſtop signs"),
            user(3, "emoji only 🦀🦀"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        for (query, n) in
            [("テキスト", 0), ("ärger", 1), ("σίσυφος", 1), ("kelvin", 2), ("STOP", 2), ("🦀", 3), ("🚀 ROCKET", 0)]
        {
            let a = search(&files, &q(query));
            let heads = excerpt_heads(&a);
            assert_eq!(
                heads.first().map(String::as_str),
                Some(format!("2026-11-29T232701Z-manual.md:{} [{n}] user", 8 + 4 * n).as_str()),
                "{query}: {a}"
            );
        }
        assert_eq!(count_before(&search(&files, &q("🦀")), "hit"), 2);
    }

    /// The pre-scan may skip a line only where the regex finds nothing on it:
    /// a char it treats as matching only itself must have no case partner.
    #[test]
    fn the_pre_scan_changes_no_answer() {
        let text = big_history(0, 150, "manual");
        let mut extra = render_history(
            &[
                user(0, "\u{212A}ILN ſpan ＦＵＬＬ width Straße STRASSE İstanbul ǅungla ΣΊΣΥΦΟΣ ς"),
                user(1, "kiln span full straße istanbul džungla σίσυφοσ"),
            ],
            "auto",
        );
        extra.push_str("\n## [2] user\n\nline with no newline at the end: kiln");
        let files = [file("2026-11-29T232701Z-manual.md", text), file("2026-11-30T000000Z-auto.md", extra)];
        let run = |terms: Terms, query: &Query| {
            let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
            let mut scan = HistoryScan::new(terms, query.clone(), &paths);
            for (k, path) in scan.reading_order() {
                scan.part(k, &files.iter().find(|(p, _)| *p == path).unwrap().1);
            }
            super::render::answer(scan.finish())
        };
        let queries = [
            "kiln",
            "span",
            "full",
            "ＦＵＬＬ",
            "straße",
            "istanbul",
            "ǅungla",
            "σίσυφοσ",
            "ς",
            "osprey",
            "cargo test",
            "日本語",
            "\"error: the\" 42",
            "ks",
            "k s",
            "test tests",
            "e",
        ];
        for query in queries.map(q).iter().chain([Query { role: Some(Role::Tool), ..q("failed") }].iter()) {
            let fast = Terms::new(query).unwrap();
            // Cased letters outside ASCII give no key: those terms read every line.
            let keyless = ["ＦＵＬＬ", "σίσυφοσ", "ς"].contains(&query.text.as_str());
            assert_eq!(fast.keys.is_none(), keyless, "{}", query.text);
            let literal = fast.literals.is_some();
            let answer = search(&files, query);
            assert_eq!(answer, run(fast, query), "{}", query.text);
            let prescan_only = Terms::new(query).unwrap().without_literals();
            assert_eq!(answer, run(prescan_only, query), "{}: literal count", query.text);
            let plain = Terms::new(query).unwrap().without_literals().without_keys();
            assert_eq!(answer, run(plain, query), "{}: pre-scan", query.text);
            assert_eq!(literal, !keyless && !query.text.contains(['"', 'ß', 'İ', 'ǅ']), "{}", query.text);
        }
    }

    // ---- long sessions ----

    /// A compaction's history of `count` messages: user asks, assistant answers
    /// with tool calls (Bash, Read, Edit) whose results run several lines, CJK
    /// and emoji in the text, one "osprey" in every Bash result.
    fn big_history(seed: u64, count: usize, trigger: &str) -> String {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut next = move |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let words = [
            "build",
            "the",
            "parser",
            "error:",
            "fix",
            "日本語",
            "テスト",
            "🚀",
            "cargo",
            "test",
            "Straße",
            "ünïcödé",
            "42",
            "src/main.rs",
            "ok",
            "failed",
        ];
        let mut sentence = |len: usize| -> String {
            (0..len).map(|_| words[next(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
        };
        let mut msgs = Vec::new();
        for n in 0..count {
            if n % 2 == 0 {
                msgs.push(user(n, &sentence(12)));
            } else {
                let tools = vec![
                    bash(
                        &format!("cargo test -p crate{n}"),
                        &format!("running {n} tests\n{}\nosprey nest found\n{}", sentence(20), sentence(8)),
                    ),
                    Tool {
                        name: "Read",
                        error: false,
                        input: format!("{{\"file_path\":\"/src/f{n}.rs\"}}"),
                        result: Some(format!("{}\n{}", sentence(30), sentence(30))),
                    },
                    Tool {
                        name: "Edit",
                        error: n % 10 == 1,
                        input: format!("{{\"old\":\"{}\"}}", sentence(5)),
                        result: None,
                    },
                ];
                msgs.push(assistant(n, &format!("{}\n{}", sentence(15), sentence(10)), tools));
            }
        }
        render_history(&msgs, trigger)
    }

    fn big_session() -> Vec<(String, String)> {
        vec![
            file("2026-11-29T080000Z-auto.md", big_history(1, 1000, "auto")),
            file("2026-11-29T120000Z-manual.md", big_history(2, 1000, "manual")),
            file("2026-11-29T160000Z-auto.md", big_history(3, 800, "auto")),
            file("2026-11-29T160000Z-auto.part2.md", {
                let mut t = header("# Conversation before compaction, part 2 of 2", 2500, "auto").join("\n");
                t.push_str("\n## [801] assistant\n\nmore\n\n### tool Bash\ninput: {}\nresult:\nosprey again\n");
                t
            }),
            file("2026-11-30T090000Z-turn-end.md", big_history(4, 1200, "turn-end")),
        ]
    }

    #[test]
    fn thousands_of_hits_stay_within_the_bound_and_count_true() {
        let files = big_session();
        // One "osprey" per Bash result: every odd message, plus the part's one.
        let expected = 500 + 500 + 400 + 1 + 600;
        let a = search(&files, &q("osprey"));
        assert!(units(&a) <= MAX_ANSWER, "{} units", units(&a));
        assert_eq!(count_before(&a, "hit"), expected, "{}", a.lines().next().unwrap());
        assert_eq!(count_before(&a, "message"), expected);
        assert_eq!(count_before(&a, "compaction"), 4);
        // All tie on one hit: the newest compaction's last message leads.
        let lead = excerpt_heads(&a).first().cloned().unwrap_or_default();
        assert!(lead.starts_with("2026-11-30T090000Z-turn-end.md:") && lead.ends_with(" [1199] assistant"), "{a}");
        assert!(a.contains(&format!("{} more messages with hits not shown", expected - DEFAULT_LIMIT)), "{a}");

        // Common words in every line, the widest limit, CJK and emoji in
        // every excerpt: still within the bound, cut at a whole excerpt.
        let wide = search(&files, &Query { limit: MAX_LIMIT, ..q("the 日本語 🚀 テスト") });
        assert!(units(&wide) <= MAX_ANSWER, "{} units", units(&wide));
        assert!(units(&wide) > MAX_ANSWER - 2000, "{} units", units(&wide));
        assert!(wide.contains(&format!("the answer stops at {MAX_ANSWER} characters")), "{wide}");
        assert!(count_before(&wide, "hit") > 20_000, "{}", wide.lines().next().unwrap());
        let r = search(&files, &Query { regex: true, limit: MAX_LIMIT, ..q(r"running \d+ tests") });
        assert!(units(&r) <= MAX_ANSWER);
        assert_eq!(count_before(&r, "hit"), 500 + 500 + 400 + 600);
    }

    #[test]
    fn the_answer_is_the_same_whatever_order_the_files_come_in() {
        let files = vec![
            file("2026-11-29T080000Z-auto.md", big_history(5, 300, "auto")),
            file("2026-11-29T080000Z-auto.part2.md", big_history(6, 100, "auto")),
            file("2026-11-29T120000Z-manual.md", big_history(7, 300, "manual")),
        ];
        let mut reversed = files.clone();
        reversed.reverse();
        for query in [q("osprey"), q("cargo 42"), Query { role: Some(Role::Tool), ..q("failed") }] {
            let a = search(&files, &query);
            assert_eq!(a, search(&reversed, &query));
            assert_eq!(a, search(&files, &query));
        }
    }
