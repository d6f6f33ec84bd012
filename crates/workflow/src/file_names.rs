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

/// Whether `stem`, a file name without its extension, names a device on Windows there
/// (`CON`, `NUL`, `COM1`, …, in any case, with or without an extension: `con.json` opens the
/// console): a file so named cannot be made, or is the device. The app and the CLI run on
/// Windows too, and a workflows folder is shared through git.
pub fn is_device_name(stem: &str) -> bool {
    // Windows drops trailing dots and spaces, and reads only up to the first dot.
    let base = stem.split('.').next().unwrap_or_default().trim_end_matches([' ', '.']).to_ascii_lowercase();
    matches!(base.as_str(), "con" | "prn" | "aux" | "nul" | "conin$" | "conout$")
        || (base.len() == 4
            && (base.starts_with("com") || base.starts_with("lpt"))
            && base.as_bytes()[3].is_ascii_digit())
        || ["com", "lpt"].iter().any(|p| base.strip_prefix(p).is_some_and(|n| matches!(n, "¹" | "²" | "³")))
}

/// `stem` as a file name's stem that is a file on every system: without the trailing dots
/// and spaces Windows drops (`notes.` and `notes` would be one file), and with `_` after a
/// Windows device name (`con` is `con_`, `con.tar` is `con_.tar`). Empty when nothing is
/// left.
pub fn portable_stem(stem: &str) -> String {
    let kept = stem.trim_end_matches([' ', '.']);
    if !is_device_name(kept) {
        return kept.to_owned();
    }
    let (base, rest) = kept.split_at(kept.find('.').unwrap_or(kept.len()));
    format!("{base}_{rest}")
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
    fn windows_device_names_get_a_stem_of_their_own() {
        for stem in
            ["CON", "con", "Nul", "aux", "PRN", "COM1", "com9", "LPT1", "lpt0", "con.tar", "NUL ", "CON.", "COM²"]
        {
            assert!(is_device_name(stem), "{stem}");
            assert!(!is_device_name(&portable_stem(stem)), "{stem}: {}", portable_stem(stem));
        }
        for stem in ["console", "com", "com10", "lpt", "nully", "a-con", "conf", "auxiliary"] {
            assert!(!is_device_name(stem), "{stem}");
            assert_eq!(portable_stem(stem), stem);
        }
        assert_eq!(portable_stem("con"), "con_");
        assert_eq!(portable_stem("con.tar"), "con_.tar");
        assert_eq!(portable_stem("Sign in. "), "Sign in");
        assert_eq!(portable_stem("..."), "");
    }

    #[test]
    fn names_that_leave_the_folder_or_hide_are_not_plain() {
        for name in ["", "../x.html", "a/b.html", "a\\b.html", ".hidden", "nul\0.html", &"x".repeat(256)] {
            assert!(!is_plain_file_name(name), "{name:?}");
        }
    }
}
