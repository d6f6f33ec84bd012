//! Where a workflow's `{{name}}` references can be: every string of its states that may
//! hold one, and the workflow with them filled in.

use crate::model::Workflow;
use crate::params::Params;
use crate::span::JsonPath;

/// The strings of one check that may hold `{{name}}` references, with their paths.
fn check_strings<'a>(check: &'a mut crate::model::Check, path: JsonPath, out: &mut Vec<(JsonPath, &'a mut String)>) {
    use crate::model::Check;
    match check {
        Check::Url { value, .. } | Check::Title { value, .. } | Check::Text { value, .. } => {
            out.push((path.key("value"), value))
        }
        Check::Element { selector, .. } => out.push((path.key("selector"), selector)),
        Check::Variable { value, .. } => out.push((path.key("value"), value)),
        Check::WindowTitle { value, .. } | Check::AppClass { value, .. } => out.push((path.key("value"), value)),
        Check::WindowExists { title, app_class, .. } | Check::WindowFocused { title, app_class, .. } => {
            if let Some(title) = title {
                out.push((path.key("title"), title));
            }
            if let Some(class) = app_class {
                out.push((path.key("app_class"), class));
            }
        }
    }
}

/// A target's strings, which may hold references (`{{product}}` in an XPath, say).
fn target_strings<'a>(
    target: &'a mut crate::model::Target,
    tpath: JsonPath,
    out: &mut Vec<(JsonPath, &'a mut String)>,
) {
    for (key, field) in [
        ("css", &mut target.css),
        ("xpath", &mut target.xpath),
        ("text", &mut target.text),
        ("role", &mut target.role),
        ("name", &mut target.name),
    ] {
        if let Some(s) = field {
            out.push((tpath.key(key), s));
        }
    }
}

impl Workflow {
    /// Every string of the workflow's states that may hold `{{name}}` references, with its
    /// path: check values, selectors and targets, URLs, typed text, keys, option values and
    /// file names.
    pub fn template_strings_mut(&mut self) -> Vec<(JsonPath, &mut String)> {
        let mut out = Vec::new();
        if let Some(skill) = &mut self.skill {
            skill_strings(skill, &mut out);
        }
        let states = JsonPath::root().key("states");
        for (si, state) in self.states.iter_mut().enumerate() {
            state_strings(state, states.index(si), &mut out);
        }
        out
    }

    /// Each of [`Self::template_strings_mut`]'s strings with its path, in the same order,
    /// copying one state at a time rather than the whole workflow: validation reads them
    /// all, and a copy of a workflow of 50,000 states with a path per string is tens of
    /// megabytes.
    pub(crate) fn each_template_string(&self, mut f: impl FnMut(&JsonPath, &str)) {
        if let Some(skill) = &self.skill {
            let mut skill = skill.clone();
            let mut out = Vec::new();
            skill_strings(&mut skill, &mut out);
            out.iter().for_each(|(path, s)| f(path, s));
        }
        let states = JsonPath::root().key("states");
        for (si, state) in self.states.iter().enumerate() {
            let mut state = state.clone();
            let mut out = Vec::new();
            state_strings(&mut state, states.index(si), &mut out);
            out.iter().for_each(|(path, s)| f(path, s));
        }
    }

    /// A copy with every reference filled in (`mask` hides secrets, for display).
    pub fn bound(&self, params: &Params, mask: bool) -> Workflow {
        let mut copy = self.clone();
        for (_, s) in copy.template_strings_mut() {
            *s = if mask { params.render_masked(s) } else { params.render(s) };
        }
        copy
    }
}

/// The strings of a skill's pre- and postconditions that may hold references.
fn skill_strings<'a>(skill: &'a mut crate::model::Skill, out: &mut Vec<(JsonPath, &'a mut String)>) {
    let path = JsonPath::root().key("skill");
    for (key, checks) in [("pre", &mut skill.pre), ("post", &mut skill.post)] {
        for (ci, check) in checks.iter_mut().enumerate() {
            check_strings(check, path.key(key).index(ci), out);
        }
    }
}

/// The strings of one state (at `state_path`) that may hold references.
fn state_strings<'a>(
    state: &'a mut crate::model::State,
    state_path: JsonPath,
    out: &mut Vec<(JsonPath, &'a mut String)>,
) {
    use crate::model::Action;
    for (key, checks) in [("checks", &mut state.checks), ("expect", &mut state.expect)] {
        for (ci, check) in checks.iter_mut().enumerate() {
            check_strings(check, state_path.key(key).index(ci), out);
        }
    }
    if let Some(terminal) = &mut state.terminal {
        out.push((state_path.key("terminal").key("message"), &mut terminal.message));
    }
    for (ai, action) in state.actions.iter_mut().enumerate() {
        let path = state_path.key("actions").index(ai);
        let (target, strings): (Option<&mut crate::model::Target>, Vec<(&str, &mut String)>) = match action {
            Action::NavigateTo { url } => (None, vec![("url", url)]),
            Action::Type { target, text, .. } => (Some(target), vec![("text", text)]),
            Action::PressKey { key } => (None, vec![("key", key)]),
            Action::SaveHtml { filename } | Action::Screenshot { filename } => (None, vec![("filename", filename)]),
            Action::Download { target, filename, .. } => (Some(target), vec![("filename", filename)]),
            Action::SelectOption { target, value, label } => {
                // Each entry of a list on its own: a variable holding "Leia, Yoda" fills one
                // entry, never several (a label may hold a comma).
                for (key, choices) in [("value", value), ("label", label)] {
                    match choices {
                        Some(crate::model::Choices::One(one)) => out.push((path.key(key), one)),
                        Some(crate::model::Choices::Many(many)) => {
                            for (i, entry) in many.iter_mut().enumerate() {
                                out.push((path.key(key).index(i), entry));
                            }
                        }
                        None => {}
                    }
                }
                (Some(target), vec![])
            }
            Action::UseSkill { args, .. } => {
                for (name, value) in args.iter_mut() {
                    out.push((path.key("args").key(name), value));
                }
                (None, vec![])
            }
            Action::Upload { target, files } => {
                for (i, file) in files.iter_mut().enumerate() {
                    out.push((path.key("files").index(i), file));
                }
                (Some(target), vec![])
            }
            Action::Extract { target, attribute, pattern, .. } => {
                let mut v = Vec::new();
                if let Some(attribute) = attribute {
                    v.push(("attribute", attribute));
                }
                if let Some(pattern) = pattern {
                    v.push(("pattern", pattern));
                }
                (Some(target), v)
            }
            Action::Drag { target, to, .. } => {
                target_strings(to, path.key("to"), out);
                (Some(target), vec![])
            }
            Action::Click { target, .. }
            | Action::Check { target, .. }
            | Action::ScrollTo { target }
            | Action::Hover { target }
            | Action::WaitFor { target, .. } => (Some(target), vec![]),
            Action::Scroll { target, .. } => (target.as_mut(), vec![]),
            Action::Wait { .. } | Action::GoBack {} => (None, vec![]),
            Action::Launch { program, args } => {
                out.push((path.key("program"), program));
                for (i, arg) in args.iter_mut().enumerate() {
                    out.push((path.key("args").index(i), arg));
                }
                (None, vec![])
            }
            Action::KeyCombo { keys } => (None, vec![("keys", keys)]),
            Action::TypeText { text } => (None, vec![("text", text)]),
            Action::FocusWindow { window }
            | Action::WaitForWindow { window, .. }
            | Action::MouseClick { window: Some(window), .. }
            | Action::MouseDrag { window: Some(window), .. }
            | Action::ScrollAt { window: Some(window), .. } => {
                let wpath = path.key("window");
                if let Some(title) = &mut window.title {
                    out.push((wpath.key("title"), title));
                }
                if let Some(class) = &mut window.app_class {
                    out.push((wpath.key("app_class"), class));
                }
                (None, vec![])
            }
            Action::SwitchTab { tab, .. } => {
                let tpath = path.key("tab");
                for (key, field) in [("url", &mut tab.url), ("title", &mut tab.title)] {
                    if let Some(s) = field {
                        out.push((tpath.key(key), s));
                    }
                }
                (None, vec![])
            }
            Action::MouseClick { window: None, .. }
            | Action::MouseDrag { window: None, .. }
            | Action::ScrollAt { window: None, .. } => (None, vec![]),
        };
        for (key, s) in strings {
            out.push((path.key(key), s));
        }
        if let Some(target) = target {
            target_strings(target, path.key("target"), out);
        }
    }
}
