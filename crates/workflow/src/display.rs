//! One-line human forms of targets and actions, for progress output and run records.

use std::fmt;

use crate::model::{Action, MouseButton, TabSelector, Target, TitleMatch, WindowSelector};

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.css, &self.xpath, &self.text, &self.role) {
            (Some(css), ..) => write!(f, "{css}")?,
            (_, Some(xpath), ..) => write!(f, "xpath {xpath}")?,
            (_, _, Some(text), _) => write!(f, "text {text:?}")?,
            (_, _, _, Some(role)) => match &self.name {
                Some(name) => write!(f, "{role} {name:?}")?,
                None => write!(f, "{role}")?,
            },
            _ => write!(f, "(no target)")?,
        }
        if self.exact == Some(false) {
            f.write_str(" (loosely)")?;
        }
        if let Some(nth) = self.nth {
            write!(f, " #{nth}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        match self {
            Action::NavigateTo { url } => write!(f, "{kind} {url}"),
            Action::GoBack {} => f.write_str(kind),
            Action::Click { target, button, count, .. } => {
                let button = match button {
                    MouseButton::Left => "",
                    MouseButton::Right => " (right)",
                    MouseButton::Middle => " (middle)",
                };
                let times = if *count > 1 { format!(" ×{count}") } else { String::new() };
                write!(f, "{kind} {target}{button}{times}")
            }
            Action::Type { target, text, .. } => write!(f, "{kind} {text:?} into {target}"),
            Action::PressKey { key } => write!(f, "{kind} {key}"),
            Action::Scroll { direction, amount, target } => {
                write!(f, "{kind} {direction:?} {amount}px")?;
                match target {
                    Some(t) => write!(f, " in {t}"),
                    None => Ok(()),
                }
            }
            Action::SelectOption { target, value, label } => match value.as_ref().or(label.as_ref()) {
                Some(choices) => write!(f, "{kind} {choices} in {target}"),
                None => write!(f, "{kind} \"\" in {target}"),
            },
            Action::Drag { target, to, .. } => write!(f, "{kind} {target} to {to}"),
            Action::Check { target, checked: true } => write!(f, "{kind} {target}"),
            Action::Check { target, checked: false } => write!(f, "un{kind} {target}"),
            Action::Upload { target, files } => match files.as_slice() {
                [file] => write!(f, "{kind} {file:?} into {target}"),
                files => write!(f, "{kind} {} files into {target}", files.len()),
            },
            Action::Download { target, filename, .. } => write!(f, "{kind} {filename} through {target}"),
            Action::Wait { seconds } => write!(f, "{kind} {seconds} s"),
            Action::WaitFor { target, .. } | Action::ScrollTo { target } | Action::Hover { target } => {
                write!(f, "{kind} {target}")
            }
            Action::Extract { target, into, read, attribute, .. } => match attribute {
                Some(attribute) if *read == crate::model::ExtractRead::Attribute => {
                    write!(f, "{kind} {attribute} of {target} into {into}")
                }
                _ => write!(f, "{kind} {} of {target} into {into}", serde_plain(read)),
            },
            Action::UseSkill { skill, args, .. } => {
                let args: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
                if args.is_empty() {
                    write!(f, "{kind} {skill}")
                } else {
                    write!(f, "{kind} {skill}({})", args.join(", "))
                }
            }
            Action::SaveHtml { filename } | Action::Screenshot { filename } => write!(f, "{kind} {filename}"),
            Action::Launch { program, args } => {
                write!(f, "{kind} {program}")?;
                for arg in args {
                    write!(f, " {arg:?}")?;
                }
                Ok(())
            }
            Action::FocusWindow { window } | Action::WaitForWindow { window, .. } => write!(f, "{kind} {window}"),
            Action::MouseClick { x, y, window, button, count } => {
                let button = match button {
                    MouseButton::Left => "",
                    MouseButton::Right => " (right)",
                    MouseButton::Middle => " (middle)",
                };
                let times = if *count > 1 { format!(" ×{count}") } else { String::new() };
                write!(f, "{kind} ({x}, {y}){}{button}{times}", in_window(window))
            }
            Action::MouseDrag { from, to, window } => {
                write!(f, "{kind} ({}, {}) → ({}, {}){}", from.x, from.y, to.x, to.y, in_window(window))
            }
            Action::ScrollAt { x, y, window, dx, dy } => {
                write!(f, "{kind} ({x}, {y}){} by ({dx}, {dy})", in_window(window))
            }
            Action::KeyCombo { keys } => write!(f, "{kind} {keys}"),
            Action::TypeText { text } => write!(f, "{kind} {text:?}"),
            Action::SwitchTab { tab, close } => {
                write!(f, "{kind} {tab}")?;
                if *close { write!(f, ", closing this one") } else { Ok(()) }
            }
        }
    }
}

fn in_window(window: &Option<WindowSelector>) -> String {
    window.as_ref().map_or(String::new(), |w| format!(" in {w}"))
}

impl fmt::Display for WindowSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(title) = &self.title {
            parts.push(match self.mode {
                TitleMatch::Exact => format!("window {title:?}"),
                TitleMatch::Contains => format!("window containing {title:?}"),
                TitleMatch::Pattern => format!("window matching /{title}/"),
            });
        }
        if let Some(class) = &self.app_class {
            parts.push(format!("class {class:?}"));
        }
        if parts.is_empty() { write!(f, "any window") } else { write!(f, "{}", parts.join(", ")) }
    }
}

impl fmt::Display for TabSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compared = |what: &str, value: &str| match self.mode {
            TitleMatch::Exact => format!("{what} {value:?}"),
            TitleMatch::Contains => format!("{what} containing {value:?}"),
            TitleMatch::Pattern => format!("{what} matching /{value}/"),
        };
        let mut parts = Vec::new();
        if let Some(url) = &self.url {
            parts.push(compared("address", url));
        }
        if let Some(title) = &self.title {
            parts.push(compared("title", title));
        }
        if parts.is_empty() { write!(f, "the previous tab") } else { write!(f, "{}", parts.join(", ")) }
    }
}

/// A unit enum's name as written in files (`text`, `count`).
fn serde_plain<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}
