//! What the loader refuses that it once took, each with its place in the file: names of the
//! run folder's own files, endless timeouts, over-long values that hid the reason, duplicate
//! keys, and "files" that are pipes, devices or far too big.

use super::*;

fn errors(src: &str) -> Vec<Diagnostic> {
    match load_str(src, "wf.json", "wf") {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(d) => d.0.into_iter().filter(|d| d.severity == Severity::Error).collect(),
    }
}

/// The single error whose message contains `needle`.
fn error_with(src: &str, needle: &str) -> Diagnostic {
    let all = errors(src);
    let found: Vec<_> = all.iter().filter(|d| d.message.contains(needle)).collect();
    assert_eq!(found.len(), 1, "expected one error containing {needle:?}, got {all:#?}");
    found[0].clone()
}

/// Line and column (1-based, in characters) of the first `needle` in `src`.
fn pos_of(src: &str, needle: &str) -> (usize, usize) {
    let before = &src[..src.find(needle).unwrap_or_else(|| panic!("{needle:?} not in source"))];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap_or("").chars().count() + 1)
}

/// A one-state workflow whose state runs `action` (JSON) and has `config` (JSON).
fn workflow(config: &str, action: &str) -> String {
    format!(
        r#"{{"version": 1, "name": "w", "config": {config},
  "states": [
    {{"name": "Start", "checks": [{{"type": "url", "value": "about:blank"}}],
     "actions": [{action}],
     "terminal": {{"outcome": "success"}}}}
  ]
}}"#
    )
}

#[test]
fn a_file_name_the_run_folder_uses_for_its_own_records_is_refused_where_it_is_written() {
    for name in ["step-002.json", "timeline.json", "action_timeline.json", "step-001.jpg", "draft.json"] {
        for kind in ["save_html", "screenshot"] {
            let src = workflow("{}", &format!(r#"{{"type": "{kind}", "filename": "{name}"}}"#));
            let error = error_with(&src, "a name the run folder keeps for");
            assert_eq!((error.line, error.column), pos_of(&src, &format!("\"{name}\"")), "{name}");
            assert_eq!(error.path, "states[0].actions[0].filename");
        }
    }
    assert!(load_str(&workflow("{}", r#"{"type": "save_html", "filename": "step-two.json"}"#), "w", "w").is_ok());
}

#[test]
fn a_file_name_built_into_one_of_the_run_folders_own_is_refused_when_bound() {
    let src = r#"{"version": 1, "name": "w", "parameters": {"n": {"default": "003"}},
      "states": [{"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                  "actions": [{"type": "screenshot", "filename": "step-{{n}}.json"}],
                  "terminal": {"outcome": "success"}}]}"#;
    let workflow = load_str(src, "w.json", "w").unwrap().workflow;
    let error = crate::Params::bind(&workflow, &[]).unwrap_err();
    assert!(matches!(error, crate::ParamError::RunFolderFileName { .. }), "{error:?}");
    assert!(error.to_string().contains("`step-003.json`, a name the run folder keeps for a step's page record"));
    assert!(crate::Params::bind(&workflow, &[("n".into(), "three".into())]).is_ok());
}

#[test]
fn config_timeouts_are_capped_at_a_day_like_an_actions_seconds() {
    for key in ["state_timeout", "verify_timeout", "action_timeout", "no_states_timeout", "transition_period"] {
        for value in ["1e308", "86401"] {
            let src = workflow(&format!(r#"{{"{key}": {value}}}"#), r#"{"type": "wait", "seconds": 1}"#);
            let error = error_with(&src, &format!("`{key}` must be a number of seconds"));
            assert!(error.message.contains("up to 86400 (a day)"), "{}", error.message);
            assert!(error.message.ends_with(&format!("not {}", if value == "86401" { "86401" } else { "1e308" })));
            assert_eq!((error.line, error.column), pos_of(&src, value), "{key}");
        }
        let src = workflow(&format!(r#"{{"{key}": 86400}}"#), r#"{"type": "wait", "seconds": 1}"#);
        assert!(load_str(&src, "w.json", "w").is_ok(), "{key}: a day is allowed");
    }
}

#[test]
fn the_reason_for_an_over_long_value_is_shown_whole() {
    let src = workflow("{}", r#"{"type": "wait", "seconds": 1e308}"#);
    assert_eq!(error_with(&src, "seconds").message, "1e308 is not a sensible number of seconds");
    let long = "x".repeat(300);
    let src = workflow("{}", &format!(r#"{{"type": "save_html", "filename": "a/{long}"}}"#));
    let error = error_with(&src, "is not a plain file name");
    assert!(error.message.ends_with("… (222 more characters)` is not a plain file name"), "{}", error.message);
}

#[test]
fn a_key_written_twice_is_an_error_at_its_second_place() {
    let src = r#"{"version":1,"name":"d",
 "states":[
  {"name":"Start","checks":[{"type":"url","value":"about:blank"}],"checks":[{"type":"url","match":"prefix","value":"http"}],
   "actions":[{"type":"navigate_to","url":"data:text/html,hi"}]},
  {"name":"End","checks":[{"type":"text","value":"hi"}],"terminal":{"outcome":"success"}}
 ]}"#;
    let error = error_with(src, "given twice");
    assert_eq!(error.message, "the key `checks` is given twice in this object (first at line 3, column 19)");
    let again = src.match_indices(r#""checks""#).nth(1).unwrap().0;
    let column = src[..again].rsplit('\n').next().unwrap().chars().count() + 1;
    assert_eq!((error.file.as_str(), error.line, error.column), ("wf.json", 3, column));
    assert_eq!(error.path, "states[0].checks");
    // In a CliGent file too, and a parameter given twice.
    let cligent =
        r#"[{"name": "A", "name": "B", "checks": [{"type": "url", "value": "about:blank"}], "end_state": true}]"#;
    assert_eq!(error_with(cligent, "given twice").column, 16);
    let src = workflow("{}", r#"{"type": "wait", "seconds": 1, "seconds": 2}"#);
    assert_eq!(error_with(&src, "given twice").path, "states[0].actions[0].seconds");
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_as_a_workflow_file_instead_of_read_until_memory_runs_out() {
    let diagnostics = load_file(Path::new("/dev/zero")).unwrap_err();
    let error = diagnostics.errors().next().unwrap();
    assert_eq!(error.message, "the workflow file is a device, not a regular file");
    assert_eq!((error.file.as_str(), error.line, error.column), ("/dev/zero", 1, 1));
}
