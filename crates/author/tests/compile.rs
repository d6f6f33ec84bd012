//! The compiler on trajectories built by hand: what becomes a state, an interrupt, a check.

use statewright_author::{Act, CompileOptions, Element, Ending, Page, Trajectory, compile};
use statewright_workflow::{Action, Check, Target, load_str, to_native_json};

fn el(role: &str, name: &str, selector: &str, dialog: Option<&str>) -> Element {
    Element {
        role: role.into(),
        name: name.into(),
        // What such an element shows is its name.
        text: name.into(),
        selector: selector.into(),
        dialog: dialog.map(str::to_owned),
        ..Element::default()
    }
}

fn click(role: &str, name: &str) -> Act {
    let target = Target { role: Some(role.into()), name: Some(name.into()), ..Target::default() };
    Act::new(Action::Click { target, button: Default::default(), count: 1, position: None })
}

fn page(step: u32, url: &str, elements: Vec<Element>, acts: Vec<Act>) -> Page {
    let text = elements.iter().map(|e| e.name.clone()).collect::<Vec<_>>().join(" ");
    Page { url: url.into(), title: "Shop".into(), text, elements, step, acts, ..Page::default() }
}

#[test]
fn an_overlay_in_the_middle_of_a_page_is_an_interrupt_and_the_page_one_state() {
    let search = || vec![el("combobox", "Product", "#product", None), el("button", "Search", "#search", None)];
    let mut with_popup = search();
    with_popup.push(el("button", "Accept all", "#consent-accept", Some("We value your privacy")));
    let typed = Act::new(Action::Type {
        target: Target { role: Some("combobox".into()), name: Some("Product".into()), ..Target::default() },
        text: "Kettle".into(),
        clear: true,
    });
    let trajectory = Trajectory {
        source: "hand".into(),
        pages: vec![
            page(1, "http://h/search.html", search(), vec![typed]),
            page(2, "http://h/search.html", with_popup, vec![click("button", "Accept all")]),
            page(3, "http://h/search.html", search(), vec![click("button", "Search")]),
            page(4, "http://h/done.html", vec![el("link", "Home", "#home", None)], vec![]),
        ],
        ending: Ending::Succeeded,
        parameters: vec![("product".into(), "Kettle".into())],
        ..Trajectory::default()
    };
    let draft = compile(&trajectory, &CompileOptions::default());
    let w = &draft.workflow;
    load_str(&to_native_json(w), "draft.json", &w.name).expect("the draft validates");
    let interrupts: Vec<_> = w.states.iter().filter(|s| s.interrupt).collect();
    assert_eq!(interrupts.len(), 1);
    assert_eq!(interrupts[0].name, "We value your privacy");
    assert!(interrupts[0].checks.iter().all(|c| !matches!(c, Check::Url { .. })), "an interrupt shows up anywhere");
    let search = w.states.iter().find(|s| s.actions.len() == 2).expect("typing and searching are one state");
    assert!(matches!(&search.actions[0], Action::Type { text, .. } if text == "{{product}}"));
    assert_eq!(search.next, ["Shop (done)"], "{:?}", search.next);
    assert_eq!(w.states.iter().filter(|s| s.terminal.is_some()).count(), 1);
}

#[test]
fn files_chosen_become_parameters_named_after_their_field_and_the_openers_click_goes() {
    let target = |name: &str| Target { role: Some("button".into()), name: Some(name.into()), ..Target::default() };
    let upload = |name: &str, files: &[&str]| {
        Act::new(Action::Upload { target: target(name), files: files.iter().map(|f| f.to_string()).collect() })
    };
    let form = || vec![el("button", "Add photos", "#add-photos", None), el("button", "2. Your CV", "#cv", None)];
    let trajectory = Trajectory {
        source: "hand".into(),
        pages: vec![
            // The page's button opened the chooser: the click and the files are one upload.
            page(1, "http://h/apply.html", form(), vec![click("button", "Add photos")]),
            page(2, "http://h/apply.html", form(), vec![upload("Add photos", &["a.png", "b.png"])]),
            page(3, "http://h/apply.html", form(), vec![upload("2. Your CV", &["cv.pdf"])]),
            page(4, "http://h/done.html", vec![el("link", "Home", "#home", None)], vec![]),
        ],
        ending: Ending::Succeeded,
        // A parameter of the demonstration's own keeps its name; one whose value is the path
        // of a file chosen stands for it.
        parameters: vec![("add_photos".into(), "unrelated".into()), ("photo".into(), "/home/ada/b.png".into())],
        ..Trajectory::default()
    };
    let w = compile(&trajectory, &CompileOptions::default()).workflow;
    load_str(&to_native_json(&w), "draft.json", &w.name).expect("the draft validates");
    let actions: Vec<&Action> = w.states.iter().flat_map(|s| &s.actions).collect();
    assert!(!actions.iter().any(|a| matches!(a, Action::Click { .. })), "{actions:?}");
    let files: Vec<Vec<String>> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Upload { files, .. } => Some(files.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(files, [vec!["{{add_photos_2}}", "{{photo}}"], vec!["{{your_cv}}"]]);
    let asked = &w.parameters["your_cv"];
    assert!(asked.default.is_none() && asked.description.contains("\"cv.pdf\""), "{asked:?}");
    assert_eq!(w.parameters["photo"].default.as_deref(), Some("/home/ada/b.png"), "the path given is its default");
}

#[test]
fn a_download_that_leaves_the_page_as_it_was_ends_the_draft_after_it() {
    let target = Target { role: Some("button".into()), name: Some("Export".into()), ..Target::default() };
    let download = Act::new(Action::Download { target, filename: "sales.csv".into(), timeout: None });
    let reports = || vec![el("button", "Export", "#export", None), el("link", "Home", "#home", None)];
    let trajectory = Trajectory {
        source: "hand".into(),
        pages: vec![
            page(1, "http://h/reports.html", reports(), vec![click("button", "Export")]),
            page(2, "http://h/reports.html", reports(), vec![download]),
            // The page as the recording ended: as it was.
            page(3, "http://h/reports.html", reports(), vec![]),
        ],
        ending: Ending::Succeeded,
        ..Trajectory::default()
    };
    let draft = compile(&trajectory, &CompileOptions::default());
    let w = &draft.workflow;
    load_str(&to_native_json(w), "draft.json", &w.name).expect("the draft validates");
    // The click that started the download is part of it.
    let acting: Vec<_> = w.states.iter().filter(|s| !s.actions.is_empty()).collect();
    assert_eq!(acting.len(), 1, "{w:#?}");
    assert!(matches!(acting[0].actions.as_slice(), [Action::Download { filename, .. }] if filename == "sales.csv"));
    // No goal state the reports page would be taken for before it acts: the draft ends after.
    assert!(acting[0].terminal.is_some(), "{:?}", acting[0]);
    assert_eq!(w.states.iter().filter(|s| s.terminal.is_some()).count(), 1, "{w:#?}");
    assert!(draft.report.notes.iter().any(|n| n.contains("looked as before")), "{:?}", draft.report.notes);
}

#[test]
fn a_secret_typed_inside_longer_text_keeps_the_text_around_it() {
    let field = || vec![el("textbox", "Token", "#token", None), el("button", "Go", "#go", None)];
    // As a stored run keeps what it typed: each secret parameter's value masked.
    let typed = |text: &str| {
        let target = Target { role: Some("textbox".into()), name: Some("Token".into()), ..Target::default() };
        Act { secret: true, ..Act::new(Action::Type { target, text: text.into(), clear: true }) }
    };
    let trajectory = Trajectory {
        source: "hand".into(),
        pages: vec![
            page(1, "http://h/a.html", field(), vec![typed("ann:••••••"), click("button", "Go")]),
            page(2, "http://h/b.html", field(), vec![typed("••••••/••••••!"), click("button", "Go")]),
            page(3, "http://h/done.html", vec![el("link", "Home", "#home", None)], vec![]),
        ],
        ending: Ending::Succeeded,
        ..Trajectory::default()
    };
    let w = compile(&trajectory, &CompileOptions::default()).workflow;
    load_str(&to_native_json(&w), "draft.json", &w.name).expect("the draft validates");
    let mut texts: Vec<&str> = w
        .states
        .iter()
        .flat_map(|s| &s.actions)
        .filter_map(|a| match a {
            Action::Type { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.sort();
    assert_eq!(texts, ["ann:{{token}}", "{{token}}/{{token_2}}!"]);
    for name in ["token", "token_2"] {
        let p = &w.parameters[name];
        assert!(p.secret && p.default.is_none(), "{name}: {p:?}");
    }
}
