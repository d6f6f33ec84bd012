//! Loading and validation, from the user's side: every mistake gets a place and a fix.

use super::*;
use crate::model::{Action, Check, Outcome, SelectorKind, Target};

fn load(src: &str) -> Result<Loaded, Diagnostics> {
    load_str(src, "wf.json", "wf")
}

fn errors(src: &str) -> Vec<Diagnostic> {
    match load(src) {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(d) => d.0.into_iter().filter(|d| d.severity == Severity::Error).collect(),
    }
}

/// The single error whose message contains `needle`, with its (line, column).
fn error_at(src: &str, needle: &str) -> (usize, usize, Diagnostic) {
    let all = errors(src);
    let found: Vec<_> = all.iter().filter(|d| d.message.contains(needle)).collect();
    assert_eq!(found.len(), 1, "expected one error containing {needle:?}, got {all:#?}");
    (found[0].line, found[0].column, found[0].clone())
}

/// Line and column (1-based, in characters) of the first occurrence of `needle` in `src`.
fn pos_of(src: &str, needle: &str) -> (usize, usize) {
    line_col(src, src.find(needle).unwrap_or_else(|| panic!("{needle:?} not in source")))
}

fn line_col(src: &str, at: usize) -> (usize, usize) {
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

const VALID: &str = r##"{
  "version": 1,
  "name": "login",
  "parameters": {
    "site": {"default": "http://127.0.0.1:8000"},
    "password": {"secret": true, "default": "pw"}
  },
  "states": [
    {
      "name": "start",
      "checks": [{"type": "url", "value": "about:blank"}],
      "actions": [{"type": "navigate_to", "url": "{{site}}/login"}],
      "next": ["login"]
    },
    {
      "name": "login",
      "checks": [{"type": "element", "selector": "#login-form"}],
      "actions": [
        {"type": "type", "target": {"css": "#password"}, "text": "{{password}}", "clear": true},
        {"type": "click", "target": {"role": "button", "name": "Sign in"}}
      ],
      "next": ["done"]
    },
    {
      "name": "done",
      "checks": [{"type": "text", "value": "Welcome"}],
      "terminal": {"outcome": "success", "message": "logged in"}
    }
  ]
}"##;

#[test]
fn a_valid_native_file_loads() {
    let loaded = load(VALID).expect("valid file");
    assert_eq!(loaded.format, SourceFormat::Native);
    assert_eq!(loaded.workflow.states.len(), 3);
    assert!(loaded.workflow.parameters["password"].secret);
    assert_eq!(loaded.workflow.states[2].terminal.as_ref().map(|t| t.outcome), Some(Outcome::Success));
}

#[test]
fn native_files_round_trip_through_the_writer() {
    let loaded = load(VALID).unwrap().workflow;
    let written = crate::to_native_json(&loaded);
    let again = load(&written).expect("written file loads").workflow;
    assert_eq!(loaded, again, "writing and reading back must not change the workflow");
    assert_eq!(written, crate::to_native_json(&again), "writing is stable");
}

#[test]
fn json_syntax_errors_have_line_and_column() {
    let src = "{\n  \"version\": 1,\n  \"name\": \"x\"\n  \"states\": []\n}";
    let errs = errors(src);
    assert_eq!(errs.len(), 1);
    assert_eq!((errs[0].line, errs[0].column), (4, 3), "{errs:?}");
    assert!(errs[0].message.starts_with("invalid JSON"), "{}", errs[0].message);
    assert!(errs[0].to_string().starts_with("wf.json:4:3: error: invalid JSON"), "{}", errs[0]);
}

#[test]
fn empty_and_non_object_files_are_errors_not_panics() {
    assert!(errors("").iter().any(|d| d.message.contains("invalid JSON")));
    assert!(!errors("42").is_empty());
    assert!(!errors("\"states\"").is_empty());
    assert!(!errors("[]").is_empty(), "an empty CliGent array has no states");
}

#[test]
fn unknown_fields_point_at_their_key() {
    let src = VALID.replace("\"next\": [\"done\"]", "\"nxt\": [\"done\"]");
    let (line, col, d) = error_at(&src, "unknown field `nxt`");
    assert_eq!((line, col), pos_of(&src, "\"nxt\""));
    assert!(d.help.unwrap_or_default().contains("next"), "help lists the allowed fields");
}

#[test]
fn unknown_fields_inside_actions_point_at_their_key() {
    let src = VALID.replace("\"clear\": true", "\"clean\": true");
    let (line, col, _) = error_at(&src, "unknown field `clean`");
    assert_eq!((line, col), pos_of(&src, "\"clean\""));
}

#[test]
fn unknown_action_types_suggest_the_closest() {
    let src = VALID.replace("\"type\": \"click\"", "\"type\": \"clik\"");
    let (line, col, d) = error_at(&src, "unknown action `clik`");
    assert_eq!((line, col), pos_of(&src, "\"clik\""));
    assert!(d.help.unwrap_or_default().contains("did you mean `click`"));
}

#[test]
fn several_mistakes_are_all_reported() {
    let src =
        VALID.replace("\"type\": \"click\"", "\"type\": \"clik\"").replace("\"type\": \"url\"", "\"type\": \"uri\"");
    let errs = errors(&src);
    assert!(errs.iter().any(|d| d.message.contains("clik")), "{errs:?}");
    assert!(errs.iter().any(|d| d.message.contains("uri")), "{errs:?}");
}

#[test]
fn missing_fields_and_wrong_types_are_positioned() {
    let src = VALID.replace("\"url\": \"{{site}}/login\"", "\"href\": \"x\"");
    assert!(errors(&src).iter().any(|d| d.message.contains("href") || d.message.contains("missing field `url`")));
    let src = VALID.replace("\"clear\": true", "\"clear\": \"yes\"");
    let errs = errors(&src);
    assert!(errs.iter().any(|d| d.message.contains("invalid type")), "{errs:?}");
}

#[test]
fn invalid_css_points_inside_the_selector() {
    let src = VALID.replace("#login-form", "#login-form[");
    let (line, col, d) = error_at(&src, "invalid CSS selector");
    let (sel_line, sel_col) = pos_of(&src, "#login-form[");
    assert_eq!(line, sel_line);
    assert!(
        col > sel_col && col <= sel_col + "#login-form[".len(),
        "column {col} should fall inside the selector at {sel_col}"
    );
    assert!(d.to_string().contains("wf.json:"), "{d}");
}

#[test]
fn invalid_xpath_is_an_error() {
    let src = VALID.replace(r##"{"css": "#password"}"##, r##"{"xpath": "//input[@name='pw'"}"##);
    error_at(&src, "invalid XPath expression");
}

#[test]
fn duplicate_state_names_are_errors() {
    let src = VALID.replace("\"name\": \"done\"", "\"name\": \"login\"");
    let (line, col, _) = error_at(&src, "duplicate state name `login`");
    let second = src.rfind("\"name\": \"login\"").unwrap() + "\"name\": ".len();
    assert_eq!((line, col), line_col(&src, second), "points at the second name");
}

#[test]
fn undefined_parameters_and_states_are_errors_with_suggestions() {
    let src = VALID.replace("{{password}}", "{{pasword}}");
    let (_, _, d) = error_at(&src, "undefined parameter or variable `pasword`");
    assert!(d.help.unwrap_or_default().contains("did you mean `password`"));
    let src = VALID.replace("\"next\": [\"done\"]", "\"next\": [\"dnoe\"]");
    let (_, _, d) = error_at(&src, "undefined state `dnoe`");
    assert!(d.help.unwrap_or_default().contains("`done`"));
}

#[test]
fn malformed_references_are_errors() {
    let src = VALID.replace("{{site}}/login", "{{site/login");
    error_at(&src, "never closed");
}

#[test]
fn a_workflow_without_a_terminal_state_cannot_finish() {
    let src = VALID.replace(",\n      \"terminal\": {\"outcome\": \"success\", \"message\": \"logged in\"}", "");
    error_at(&src, "no terminal state");
}

#[test]
fn targets_need_exactly_one_locator() {
    let src = VALID.replace(r##"{"css": "#password"}"##, r##"{"css": "#password", "text": "Password"}"##);
    error_at(&src, "exactly one of css, xpath, text or role");
    let src = VALID.replace(r##"{"css": "#password"}"##, r##"{"name": "Password"}"##);
    assert!(errors(&src).iter().any(|d| d.message.contains("needs `role`")));
}

#[test]
fn exact_says_how_text_or_a_name_is_matched() {
    let src = VALID.replace(r##"{"css": "#password"}"##, r##"{"css": "#password", "exact": false}"##);
    error_at(&src, "`exact` says how `text` or a role's `name` is matched");
    let src = VALID.replace(r##"{"css": "#password"}"##, r##"{"text": "PASSWORD", "exact": false}"##);
    assert!(load(&src).is_ok());
}

#[test]
fn bad_values_are_explained() {
    let cases = [
        (r#""clear": true"#, r#""clear": true}, {"type": "press_key", "key": "Entr""#, "unknown key `Entr`"),
        (r#""clear": true"#, r#""clear": true}, {"type": "wait", "seconds": -1"#, "not a sensible number of seconds"),
        (
            r#""clear": true"#,
            r#""clear": true}, {"type": "save_html", "filename": "../x.html""#,
            "not a plain file name",
        ),
        (
            r#""clear": true"#,
            r#""clear": true}, {"type": "select_option", "target": {"css": "select"}"#,
            "exactly one of `value` or `label`",
        ),
        (r#""url": "{{site}}/login""#, r#""url": "login.html""#, "not an absolute URL"),
        (r#""url": "{{site}}/login""#, r#""url": " JavaScript:alert(1)""#, "is a script, not an address"),
        (r#""url": "{{site}}/login""#, r#""url": "\u0001java\tscript:alert(1)""#, "is a script, not an address"),
        (
            r#""clear": true"#,
            r#""clear": true}, {"type": "switch_tab", "tab": {"url": "(docs", "match": "pattern"}"#,
            "invalid regular expression",
        ),
        (
            r#""clear": true"#,
            r#""clear": true}, {"type": "switch_tab", "tab": {"title": ""}"#,
            "an empty `title` matches every tab",
        ),
        (
            r#"{"type": "url", "value": "about:blank"}"#,
            r#"{"type": "url", "match": "pattern", "value": "(unclosed"}"#,
            "invalid regular expression",
        ),
        (r#""version": 1"#, r#""version": 2"#, "unsupported format version 2"),
        (r#""version": 1,"#, r#""version": 1, "config": {"transition_period": 0},"#, "transition_period"),
    ];
    for (from, to, message) in cases {
        let src = VALID.replacen(from, to, 1);
        assert_ne!(src, VALID, "replacement of {from:?} must apply");
        error_at(&src, message);
    }
}

#[test]
fn states_without_checks_never_match_and_are_errors() {
    let src = VALID.replace(r#""checks": [{"type": "text", "value": "Welcome"}]"#, r#""checks": []"#);
    error_at(&src, "has no checks");
}

const CLIGENT_ARRAY: &str = r#"[
  {"name": "Start", "description": "blank", "checks": [{"type": "url", "value": "about:blank"}],
   "actions": ["navigate_to('http://127.0.0.1:8000/')"]},
  {"name": "Search", "checks": [{"type": "element", "value": "input[name='q']"}, {"type": "text", "value": "Search"}],
   "actions": [
     "type(by='xpath', selector=\"//input[@name='q']\", text='kettle')",
     "press_key(key='enter')",
     "click(by='css selector', selector='#go', button='left', percentage=0.25, scroll_to=True)",
     "scroll('down', 300)",
     "wait(seconds=1.5)",
     "click(by='link text', selector='Next \"page\"')",
     "save_html(filename=None)"
   ]},
  {"name": "Done", "checks": [{"type": "text", "value": "Thanks"}], "actions": [], "end_state": "Action Completed"}
]"#;

#[test]
fn cligent_arrays_load_as_typed_actions() {
    let loaded = load(CLIGENT_ARRAY).expect("CliGent array loads");
    assert_eq!(loaded.format, SourceFormat::CliGent);
    let wf = &loaded.workflow;
    assert_eq!(wf.name, "wf", "an array takes the file's name");
    assert_eq!(wf.states[2].terminal.as_ref().unwrap().message, "Action Completed");
    let actions = &wf.states[1].actions;
    assert_eq!(
        actions[0],
        Action::Type {
            target: Target { xpath: Some("//input[@name='q']".into()), ..Target::default() },
            text: "kettle".into(),
            clear: true
        }
    );
    assert_eq!(actions[1], Action::PressKey { key: "enter".into() });
    match &actions[2] {
        Action::Click { target, position, .. } => {
            assert_eq!(target.css.as_deref(), Some("#go"));
            assert_eq!(position.map(|p| p.x), Some(0.25));
        }
        other => panic!("expected a click, got {other:?}"),
    }
    assert!(matches!(actions[3], Action::Scroll { amount: 300, .. }));
    assert_eq!(actions[4], Action::Wait { seconds: 1.5 });
    assert_eq!(actions[5].target().unwrap().xpath.as_deref(), Some(r#"//a[normalize-space(.)='Next "page"']"#));
    assert!(matches!(&actions[6], Action::SaveHtml { filename } if filename.ends_with(".html")));
    assert!(matches!(&wf.states[1].checks[0], Check::Element { by: SelectorKind::Css, .. }));
}

#[test]
fn cligent_objects_carry_config_and_parameters() {
    let src = r#"{"states": [
        {"name": "a", "checks": [{"type": "url", "value": "about:blank"}], "actions": ["navigate_to(url='{{site}}')"]},
        {"name": "b", "checks": [{"type": "text", "value": "ok"}], "actions": ["type(by='id', selector='pw', text='{{password}}')"], "end_state": "done"}
      ],
      "config": {"allow_multiple_states": false, "transition_period": 0.2, "no_states_timeout": 5, "action_period": 0.1, "state_timeout": 9, "recursion_limit": 7},
      "parameters": {"site": "http://x/", "password": "hunter2"}}"#;
    let wf = load(src).expect("CliGent object loads").workflow;
    assert!(!wf.config.allow_multiple_states);
    assert_eq!(wf.config.recursion_limit, 7);
    assert_eq!(wf.parameters["site"].default.as_deref(), Some("http://x/"));
    assert!(wf.parameters["password"].secret, "credential-like names are secret");
    assert!(!wf.parameters["site"].secret);
    assert_eq!(wf.states[1].actions[0].target().unwrap().css.as_deref(), Some(r#"[id="pw"]"#));
}

#[test]
fn cligent_typing_with_coordinate_fallbacks_types_by_its_selector() {
    // CliGent's compiler adds pixel fallbacks to typing as to clicks (seed 000).
    let src = r#"[{"name": "s", "checks": [{"type": "url", "value": "about:blank"}], "end_state": "done", "actions": [
        "type(by='css selector', selector='#q', text='kettle', x=100, y=200)",
        "type(by='id', selector='q', text='kettle', clear=False, coordinates=(100, 200))"]}]"#;
    let loaded = load(src).expect("typing with fallbacks loads");
    let actions = &loaded.workflow.states[0].actions;
    let css = |c: &str| Target { css: Some(c.into()), ..Target::default() };
    assert_eq!(actions[0], Action::Type { target: css("#q"), text: "kettle".into(), clear: true });
    assert_eq!(actions[1], Action::Type { target: css(r#"[id="q"]"#), text: "kettle".into(), clear: false });
    let said: Vec<&str> = loaded.warnings.0.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(said, ["coordinate fallbacks are ignored; the typing uses the selector only"; 2]);
}

#[test]
fn a_terminal_states_next_is_warned_of_and_the_file_still_loads() {
    let src = VALID.replacen(
        r#""terminal": {"outcome": "success", "message": "logged in"}"#,
        r#""next": ["login"], "terminal": {"outcome": "success", "message": "logged in"}"#,
        1,
    );
    let loaded = load(&src).expect("it still loads");
    let said: Vec<(&str, usize)> = loaded.warnings.0.iter().map(|w| (w.message.as_str(), w.line)).collect();
    let (line, _) = pos_of(&src, r#""next": ["login"], "terminal""#);
    assert_eq!(said, [("`next` of terminal state `done` is never followed: entering it ends the run", line)]);
    assert!(load(VALID).expect("valid").warnings.0.is_empty(), "a terminal state without `next` is fine");
}

#[test]
fn cligent_call_mistakes_point_into_the_string() {
    let with_action =
        |action: &str| CLIGENT_ARRAY.replace("\"press_key(key='enter')\"", &serde_json::to_string(action).unwrap());
    let src = with_action("press_kye(key='enter')");
    let (line, col, d) = error_at(&src, "unknown action `press_kye`");
    assert_eq!((line, col), {
        let (l, c) = pos_of(&src, "\"press_kye");
        (l, c + 1)
    });
    assert!(d.help.unwrap_or_default().contains("did you mean `press_key`"));

    let src = with_action("click(by='css selector', selectr='#go')");
    let (line, col, _) = error_at(&src, "unknown argument `selectr`");
    assert_eq!((line, col), pos_of(&src, "selectr"));

    let src = with_action("click(by='css selector', selector='#go'");
    error_at(&src, "cannot parse action");

    let src = with_action("press_key(key=KEY_ENTER)");
    error_at(&src, "cannot parse action");

    let src = with_action("wait(seconds='soon')");
    error_at(&src, "must be a number");

    let src = with_action("click(by='magic', selector='x')");
    error_at(&src, "unknown locator strategy");

    let src = with_action("press_key(key='entr')");
    error_at(&src, "unknown key `entr`");
}

#[test]
fn cligent_unknown_state_fields_and_check_types_are_errors() {
    let src = CLIGENT_ARRAY.replace("\"description\": \"blank\"", "\"descr\": \"blank\"");
    error_at(&src, "unknown field `descr`");
    let src = CLIGENT_ARRAY
        .replace("{\"type\": \"text\", \"value\": \"Thanks\"}", "{\"type\": \"texts\", \"value\": \"Thanks\"}");
    error_at(&src, "unknown check type `texts`");
}

#[test]
fn no_input_makes_the_loader_panic() {
    // Every prefix, and every single-byte corruption at a few hundred places.
    for source in [VALID, CLIGENT_ARRAY] {
        for end in (0..source.len()).filter(|&i| source.is_char_boundary(i)) {
            let _ = load(&source[..end]);
        }
        let bytes = source.as_bytes();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..600 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut corrupted = bytes.to_vec();
            let at = (seed as usize) % corrupted.len();
            let alphabet = b"{}[],:\"\\ 0a-/'(.";
            corrupted[at] = alphabet[(seed >> 32) as usize % alphabet.len()];
            if let Ok(text) = String::from_utf8(corrupted) {
                let _ = load(&text);
            }
        }
    }
}

#[test]
fn prompt_only_states_load_natively_and_from_cligent_descriptions() {
    let native = r#"{"version": 1, "name": "w", "states": [
        {"name": "Done", "checks": [{"type": "text", "value": "ok"}], "terminal": {"outcome": "success"}},
        {"name": "Sign in", "prompt": "sign in as {{user}}", "next": ["Done"]}
    ], "parameters": {"user": {"default": "ann"}}}"#;
    let loaded = load_str(native, "w.json", "w").unwrap();
    assert!(loaded.workflow.states[1].awaits_synthesis());

    let no_prompt = native.replace(r#""prompt": "sign in as {{user}}", "#, "");
    let e = load_str(&no_prompt, "w.json", "w").unwrap_err().to_string();
    assert!(e.contains("has no checks") && e.contains("`prompt`"), "{e}");

    let cligent = r#"[
        {"name": "start", "description": "Open the shop and sign in", "next": ["done"]},
        {"name": "done", "checks": [{"type": "text", "value": "Welcome"}], "end_state": "signed in"}
    ]"#;
    let loaded = load_str(cligent, "c.json", "c").unwrap();
    let start = &loaded.workflow.states[0];
    assert_eq!(start.prompt.as_deref(), Some("Open the shop and sign in"));
    assert!(start.awaits_synthesis());
}

/// `VALID` with the login state's actions and the done state's checks replaced.
fn with_extraction(actions: &str, done_checks: &str) -> String {
    let src = VALID.replace(
        r#"{"type": "click", "target": {"role": "button", "name": "Sign in"}}"#,
        &format!(r#"{{"type": "click", "target": {{"role": "button", "name": "Sign in"}}}}, {actions}"#),
    );
    let done = src.rfind("\"checks\": [").unwrap();
    let end = done + src[done..].find(']').unwrap() + 1;
    format!("{}\"checks\": [{done_checks}]{}", &src[..done], &src[end..])
}

#[test]
fn extracted_variables_may_be_referenced_and_asserted() {
    let src = with_extraction(
        r#"{"type": "extract", "target": {"css": ".total"}, "into": "total", "pattern": "\\$([\\d.]+)"},
           {"type": "extract", "target": {"css": "a"}, "into": "link", "read": "attribute", "attribute": "href"},
           {"type": "navigate_to", "url": "{{site}}/{{link}}"}"#,
        r#"{"type": "variable", "name": "total", "match": "at_least", "value": "10"},
           {"type": "text", "value": "Paid {{total}}"}"#,
    );
    let wf = load(&src).unwrap_or_else(|d| panic!("{d:?}")).workflow;
    assert_eq!(wf.variables(), ["total", "link"]);
    assert!(matches!(&wf.states[2].checks[0], Check::Variable { name, .. } if name == "total"));
}

/// `lines` is a text read: a pattern narrows it (`(?m)` anchors at each line) and it is
/// written back as it was read.
#[test]
fn a_lines_read_is_one_text_a_pattern_may_narrow() {
    let src = with_extraction(
        r#"{"type": "extract", "target": {"css": "address"}, "into": "street", "read": "lines", "pattern": "(?m)^(\\d+ .+)$"}"#,
        r#"{"type": "variable", "name": "street", "match": "pattern", "value": "(?m)^\\d+ "}"#,
    );
    let wf = load(&src).unwrap_or_else(|d| panic!("{d:?}")).workflow;
    let action = wf.states[1].actions.last().unwrap();
    let Action::Extract { read, pattern, .. } = action else { panic!("{action:?}") };
    assert_eq!((*read, pattern.as_deref()), (crate::model::ExtractRead::Lines, Some(r"(?m)^(\d+ .+)$")));
    assert_eq!(serde_json::to_value(action).unwrap()["read"], "lines");
    assert_eq!(action.to_string(), "extract lines of address into street");
}

#[test]
fn extraction_mistakes_are_errors_in_place() {
    let extract = |fields: &str| {
        let action = format!(r#"{{"type": "extract", "target": {{"css": ".t"}}, {fields}}}"#);
        with_extraction(&action, r#"{"type": "text", "value": "ok"}"#)
    };
    let src = extract(r#""into": "password""#);
    let (line, col, _) = error_at(&src, "`password` is a parameter");
    assert_eq!((line, col), pos_of(&src, r#""password"}"#));
    error_at(&extract(r#""into": "two words""#), "not a valid variable name");
    error_at(&extract(r#""into": "x", "read": "attribute""#), "needs the attribute's name");
    error_at(&extract(r#""into": "x", "attribute": "href""#), "only read with \"read\": \"attribute\"");
    error_at(&extract(r#""into": "x", "read": "count", "pattern": "\\d""#), "narrows one text");
    error_at(&extract(r#""into": "x", "pattern": "(unclosed""#), "invalid regular expression");
    let src = extract(r#""into": "x", "read": "everything""#);
    let (line, col, d) = error_at(&src, "unknown `read` value `everything`");
    assert_eq!((line, col), pos_of(&src, r#""everything""#), "points at the value, not the action");
    assert!(d.help.unwrap_or_default().contains("`table`"));
}

#[test]
fn variable_check_mistakes_are_errors_with_suggestions() {
    let read = r#"{"type": "extract", "target": {"css": ".total"}, "into": "total"}"#;
    let src = with_extraction(read, r#"{"type": "variable", "name": "totl", "value": "1"}"#);
    let (_, _, d) = error_at(&src, "no variable or parameter `totl`");
    assert!(d.help.unwrap_or_default().contains("did you mean `total`"));
    let src =
        with_extraction(read, r#"{"type": "variable", "name": "total", "match": "greater_than", "value": "lots"}"#);
    error_at(&src, "`lots` has no number to compare with");
    let src = with_extraction(read, r#"{"type": "variable", "name": "total", "match": "pattern", "value": "(("}"#);
    error_at(&src, "invalid regular expression");
}

#[test]
fn cligent_extract_calls_become_extract_actions() {
    let src = r#"[
      {"name": "s", "checks": [{"type": "url", "value": "about:blank"}],
       "actions": ["extract(by='xpath', selector='//h1', into='title', pattern=r'(\\d+)')",
                   "extract(selector='.rows tr', into='rows', read='count')",
                   "extract(selector='address', into='address', read='lines')",
                   "extract(selector='.h', into='x', read='everything')"],
       "end_state": true}
    ]"#;
    let (_, _, d) = error_at(src, "unknown read 'everything'");
    assert!(d.message.contains("text, lines, attribute, value, count, list or table"));
    let fixed = src.replace(",\n                   \"extract(selector='.h', into='x', read='everything')\"", "");
    let wf = load(&fixed).unwrap_or_else(|d| panic!("{d:?}")).workflow;
    let Action::Extract { target, into, read, pattern, .. } = &wf.states[0].actions[0] else { panic!() };
    assert_eq!(
        (target.xpath.as_deref(), into.as_str(), *read, pattern.as_deref()),
        (Some("//h1"), "title", crate::model::ExtractRead::Text, Some(r"(\d+)"))
    );
    assert!(matches!(&wf.states[0].actions[1], Action::Extract { read: crate::model::ExtractRead::Count, .. }));
    assert!(matches!(&wf.states[0].actions[2], Action::Extract { read: crate::model::ExtractRead::Lines, .. }));
}

#[test]
fn a_drags_destination_is_checked_like_its_target_and_may_hold_references() {
    let click = r#"{"type": "click", "target": {"role": "button", "name": "Sign in"}}"#;
    let drag = r##"{"type": "drag", "target": {"text": "Call Ada"}, "to": {"css": "#{{column}}["}, "position": {"x": 2, "y": 0.5}}"##;
    let src = VALID.replace(click, drag).replace(r#""password": {"#, r#""column": {"default": "done"}, "password": {"#);
    let (line, col, _) = error_at(&src, "invalid CSS selector");
    let (at_line, at_col) = pos_of(&src, "#{{column}}[");
    assert!(
        line == at_line && col >= at_col,
        "the error is inside `to`'s selector at {at_line}:{at_col}: {line}:{col}"
    );
    error_at(&src, "position is a fraction");
    let fixed = src.replace("#{{column}}[", "#{{column}}").replace(r#""x": 2"#, r#""x": 0.5"#);
    let loaded = load(&fixed).expect("a valid drag");
    let params = crate::Params::bind(&loaded.workflow, &[]).unwrap();
    let bound = loaded.workflow.bound(&params, false);
    match &bound.states[1].actions[1] {
        Action::Drag { to, .. } => assert_eq!(to.css.as_deref(), Some("#done")),
        other => panic!("{other:?}"),
    }
}
