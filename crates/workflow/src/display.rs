//! One-line human forms of targets and actions, for progress output and run records.

use std::fmt;

use crate::model::{Action, MouseButton, Target};

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
            Action::SelectOption { target, value, label } => {
                let choice = value.as_ref().or(label.as_ref()).map(String::as_str).unwrap_or_default();
                write!(f, "{kind} {choice:?} in {target}")
            }
            Action::Wait { seconds } => write!(f, "{kind} {seconds} s"),
            Action::WaitFor { target, .. } | Action::ScrollTo { target } | Action::Hover { target } => {
                write!(f, "{kind} {target}")
            }
            Action::SaveHtml { filename } | Action::Screenshot { filename } => write!(f, "{kind} {filename}"),
        }
    }
}
