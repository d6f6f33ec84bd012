//! `select_option` with one option or several: files with one string read and write as
//! before, a list is a list, and its mistakes have a place.

use super::*;
use crate::model::{Action, Choices};
use crate::params::Params;

/// A workflow whose one acting state chooses `choice` (the JSON after `"label": `, say).
fn choosing(field: &str, choice: &str) -> String {
    format!(
        r##"{{
  "version": 1,
  "name": "rebels",
  "parameters": {{"who": {{"default": "Leia"}}}},
  "states": [
    {{
      "name": "list",
      "checks": [{{"type": "element", "selector": "#people"}}],
      "actions": [
        {{"type": "select_option", "target": {{"css": "#people"}}, "{field}": {choice}}},
        {{"type": "click", "target": {{"text": "Submit"}}}}
      ],
      "next": ["done"]
    }},
    {{"name": "done", "checks": [{{"type": "text", "value": "Thanks"}}], "terminal": {{"outcome": "success", "message": "sent"}}}}
  ]
}}"##
    )
}

fn chosen(src: &str) -> Action {
    let loaded = load_str(src, "wf.json", "wf").unwrap_or_else(|d| panic!("{d}"));
    loaded.workflow.states[0].actions[0].clone()
}

fn errors(src: &str) -> Vec<Diagnostic> {
    match load_str(src, "wf.json", "wf") {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(d) => d.0.into_iter().filter(|d| d.severity == Severity::Error).collect(),
    }
}

#[test]
fn a_list_of_labels_or_values_reads_as_a_list_and_one_string_stays_a_string() {
    let many = chosen(&choosing("label", r#"["Leia", "Yoda"]"#));
    let Action::SelectOption { label: Some(label), value: None, .. } = &many else { panic!("{many:?}") };
    assert_eq!(label, &Choices::Many(vec!["Leia".into(), "Yoda".into()]));
    let values = chosen(&choosing("value", r#"["l", "y"]"#));
    assert!(matches!(&values, Action::SelectOption { value: Some(Choices::Many(v)), .. } if v == &["l", "y"]));
    assert_eq!(many.to_string(), r#"select_option "Leia", "Yoda" in #people"#);

    for (choice, written) in [(r#""Leia""#, r#""label": "Leia""#), (r#"["Leia", "Yoda"]"#, r#""label": ["#)] {
        let src = choosing("label", choice);
        let loaded = load_str(&src, "wf.json", "wf").unwrap().workflow;
        let text = crate::to_native_json(&loaded);
        assert!(text.contains(written), "{choice} is written as it was read:\n{text}");
        assert_eq!(load_str(&text, "wf.json", "wf").unwrap().workflow, loaded, "round trip of {choice}");
    }
}

#[test]
fn an_empty_list_is_an_error_at_its_field() {
    let src = choosing("label", "[]");
    let errs = errors(&src);
    let found: Vec<_> = errs.iter().filter(|d| d.message.contains("empty `label` list chooses no option")).collect();
    assert_eq!(found.len(), 1, "{errs:#?}");
    assert_eq!(found[0].path, "states[0].actions[0].label");
    let at = src.find("[]").unwrap();
    let line = src[..at].matches('\n').count() + 1;
    assert_eq!(found[0].line, line, "{}", found[0]);
    let empty_value = errors(&choosing("value", "[]"));
    assert!(empty_value.iter().any(|d| d.message.contains("empty `value` list")), "{empty_value:#?}");
}

#[test]
fn anything_but_strings_is_said_as_such() {
    for bad in ["3", r#"["Leia", 3]"#, r#"{"label": "Leia"}"#] {
        let errs = errors(&choosing("label", bad));
        assert!(errs.iter().any(|d| d.message.contains("expected a string")), "{bad}: {errs:#?}");
    }
}

#[test]
fn each_entry_is_filled_in_on_its_own_and_a_comma_in_a_value_splits_nothing() {
    let src = choosing("label", r#"["{{who}}", "Yoda"]"#);
    let workflow = load_str(&src, "wf.json", "wf").unwrap().workflow;
    let params = Params::bind(&workflow, &[("who".into(), "Leia, Luke".into())]).unwrap();
    let bound = workflow.bound(&params, false);
    let Action::SelectOption { label: Some(label), .. } = &bound.states[0].actions[0] else { panic!() };
    assert_eq!(label.as_slice(), ["Leia, Luke", "Yoda"]);

    let errs = errors(&choosing("label", r#"["Leia", "{{whom}}"]"#));
    let undefined: Vec<_> =
        errs.iter().filter(|d| d.message.contains("undefined parameter or variable `whom`")).collect();
    assert_eq!(undefined.len(), 1, "{errs:#?}");
    assert_eq!(undefined[0].path, "states[0].actions[0].label[1]");
}

#[test]
fn cligent_chooses_several_with_a_list() {
    let with = |call: &str| {
        format!(
            r#"[{{"name": "a", "checks": [{{"type": "url", "value": "about:blank"}}], "actions": ["{call}"]}},
                {{"name": "b", "checks": [{{"type": "text", "value": "ok"}}], "actions": [], "end_state": "done"}}]"#
        )
    };
    let several = chosen(&with("select_option(selector='#people', label=['Leia', 'Yoda'])"));
    assert!(matches!(&several, Action::SelectOption { label: Some(Choices::Many(l)), .. } if l == &["Leia", "Yoda"]));
    let one = chosen(&with("select_option(selector='#people', value='l')"));
    assert!(matches!(&one, Action::SelectOption { value: Some(Choices::One(v)), .. } if v == "l"));
    let errs = errors(&with("select_option(selector='#people', label=['Leia', 3])"));
    assert!(errs.iter().any(|d| d.message.contains("`label` must be a string or a list of strings")), "{errs:#?}");
}
