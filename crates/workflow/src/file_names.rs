//! Names of the files actions write (`save_html`, `screenshot`, `download`) into the run
//! folder: plain names, and none of the names the folder uses for its own records.

/// A name for a file inside the run folder: no separators, no `..`, not hidden, no NUL,
/// and not one of the folder's own files ([`run_folder_file`]). Checked on the workflow as
/// written and again once parameters are filled in.
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['/', '\\', '\0'])
        && !name.starts_with('.')
        && name.len() <= 255
        && run_folder_file(name).is_none()
}

/// What the run folder itself keeps under `name`, if anything: the export writes these
/// after the actions' files (`crates/runner/src/export.rs`), so an action's file of that name
/// would be overwritten, or would overwrite a step's record. Compared without case, as
/// macOS and Windows file systems do.
pub fn run_folder_file(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "timeline.json" => return Some("the run's timeline"),
        "action_timeline.json" => return Some("the run's action timeline"),
        "draft.json" => return Some("a recording's draft workflow"),
        _ => {}
    }
    // Every file is written through `<stem>.tmp~` and renamed into place.
    if lower.ends_with(".tmp~") {
        return Some("the export's temporary files");
    }
    let (stem, extension) = lower.rsplit_once('.')?;
    let step = stem.strip_prefix("step-").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    match extension {
        "json" if step => Some("a step's page record"),
        "jpg" | "jpeg" | "png" if step => Some("a step's screenshot"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_folders_own_names_are_not_an_actions_to_write() {
        for name in [
            "timeline.json",
            "action_timeline.json",
            "Timeline.JSON",
            "step-002.json",
            "step-1000.json",
            "step-002.jpg",
            "step-002.png",
            "draft.json",
            "timeline.tmp~",
            "page.tmp~",
        ] {
            assert!(run_folder_file(name).is_some(), "{name}");
            assert!(!is_plain_file_name(name), "{name}");
        }
        for name in ["page.html", "step-two.json", "step-.json", "step-002.html", "my-timeline.json", "steps.png"] {
            assert_eq!(run_folder_file(name), None, "{name}");
            assert!(is_plain_file_name(name), "{name}");
        }
    }

    #[test]
    fn names_that_leave_the_folder_or_hide_are_not_plain() {
        for name in ["", "../x.html", "a/b.html", "a\\b.html", ".hidden", "nul\0.html", &"x".repeat(256)] {
            assert!(!is_plain_file_name(name), "{name:?}");
        }
    }
}
