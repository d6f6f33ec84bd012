//! Writing a workflow file: the one way every writer replaces one (the app's saves and
//! renames, review fixes and `review save-healed`, `compile --out`, a recording merged into
//! its file, skills imported, mined or exported to seed 003's format).
//!
//! The text goes into a temporary file of this write's own beside the file, which is then
//! renamed over it: a crash never leaves half a workflow, and two writers at once each leave
//! a whole one. A workflow file that is a symbolic link (`workflows/shop.json ->
//! ~/projects/shop/shop.json`, a workflow kept in its own repository) is written where it
//! leads: the temporary file goes beside the link's target and is renamed over the target,
//! so the link stays a link and the repository gets the edit (renaming over the link would
//! replace it with a copy and leave the repository's file as it was). A link whose target is
//! gone is refused with nothing written: a new file there could be in a place the person no
//! longer keeps workflows, and replacing the link would cut it from its repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a workflow file was not written; in every case the file is as it was.
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    #[error(
        "{} is a symbolic link to {}, which does not exist: nothing was written (put the file back there, or remove the link)",
        link.display(),
        target.display()
    )]
    DanglingLink { link: PathBuf, target: PathBuf },
    #[error("{} is {what}, not a regular file: nothing was written", path.display())]
    NotAFile { path: PathBuf, what: String },
    #[error("cannot write {}: {error}", path.display())]
    Io { path: PathBuf, error: std::io::Error },
}

/// Replaces the workflow file at `path` (or creates it) with `text`, through a temporary
/// file and a rename beside the file a symbolic link at `path` leads to.
pub fn write_workflow_text(path: &Path, text: &str) -> Result<(), Unwritable> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let file = writable_file(path)?;
    let existing = std::fs::metadata(&file).ok();
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Hidden, so folder listings and watchers pass it over; the name shortened so that the
    // affixes never make it longer than a file name may be.
    let cut = (0..=name.len().min(100)).rev().find(|&i| name.is_char_boundary(i)).unwrap_or(0);
    let short = &name[..cut];
    let write = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = file.with_file_name(format!(".{short}.{}-{write}.tmp", std::process::id()));
    let written = (|| {
        let mut out = std::fs::File::create(&tmp)?;
        out.write_all(text.as_bytes())?;
        out.sync_all()?;
        // The file keeps its permissions (a workflow kept private stays private).
        if let Some(metadata) = &existing {
            std::fs::set_permissions(&tmp, metadata.permissions())?;
        }
        std::fs::rename(&tmp, &file)
    })();
    written.map_err(|error| {
        let _ = std::fs::remove_file(&tmp);
        Unwritable::Io { path: file, error }
    })
}

/// The file a write to `path` replaces: `path` itself, or where the symbolic link at `path`
/// finally leads.
/// The file a write to `path` replaces (where a symbolic link there leads), or why nothing
/// may be written there: a link whose file is gone, a folder, a pipe. Asked of every file
/// first, a write of several files (a skills import) is refused before any is written.
pub fn writable_file(path: &Path) -> Result<PathBuf, Unwritable> {
    let file = where_to_write(path)?;
    match std::fs::metadata(&file) {
        Ok(metadata) if !metadata.is_file() => {
            Err(Unwritable::NotAFile { path: path.to_owned(), what: what_is_at(path) })
        }
        _ => Ok(file),
    }
}

fn where_to_write(path: &Path) -> Result<PathBuf, Unwritable> {
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
    if !link {
        return Ok(path.to_owned());
    }
    std::fs::canonicalize(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => {
            Unwritable::DanglingLink { link: path.to_owned(), target: std::fs::read_link(path).unwrap_or_default() }
        }
        _ => Unwritable::Io { path: path.to_owned(), error },
    })
}

/// What is at `path`, in words, for a message: `a file`, `a folder`, `a named pipe (FIFO)`,
/// `a symbolic link to /x, which does not exist`…
pub fn what_is_at(path: &Path) -> String {
    let Ok(metadata) = std::fs::symlink_metadata(path) else { return "nothing".into() };
    if metadata.is_symlink() {
        let to = std::fs::read_link(path).unwrap_or_default();
        return match std::fs::metadata(path) {
            Ok(target) if target.is_dir() => format!("a symbolic link to the folder {}", to.display()),
            Ok(target) if target.is_file() => format!("a symbolic link to the file {}", to.display()),
            Ok(target) => format!("a symbolic link to {} ({})", to.display(), crate::load::kind(&target.file_type())),
            Err(_) => format!("a symbolic link to {}, which does not exist", to.display()),
        };
    }
    if metadata.is_file() { "a file".into() } else { crate::load::kind(&metadata.file_type()).into() }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_linked_workflow_is_written_into_its_target_and_stays_a_link() {
        let root = std::env::temp_dir().join(format!("sw-write-link-{}", std::process::id()));
        let (folder, repo) = (root.join("workflows"), root.join("repo"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(repo.join("shop.json"), "old").unwrap();
        // Relative, as `ln -s ../repo/shop.json` makes it.
        std::os::unix::fs::symlink("../repo/shop.json", folder.join("shop.json")).unwrap();

        write_workflow_text(&folder.join("shop.json"), "new").expect("written");
        assert!(std::fs::symlink_metadata(folder.join("shop.json")).unwrap().is_symlink(), "still a link");
        assert_eq!(std::fs::read_to_string(repo.join("shop.json")).unwrap(), "new", "the target got the edit");
        assert_eq!(names_in(&folder), ["shop.json"], "no temporary file in the folder");
        assert_eq!(names_in(&repo), ["shop.json"], "nor beside the target");

        std::fs::remove_file(repo.join("shop.json")).unwrap();
        let refused = write_workflow_text(&folder.join("shop.json"), "newer").expect_err("a link to nothing");
        assert!(matches!(refused, Unwritable::DanglingLink { .. }), "{refused}");
        assert_eq!(
            refused.to_string(),
            format!(
                "{} is a symbolic link to ../repo/shop.json, which does not exist: nothing was written (put the file back there, or remove the link)",
                folder.join("shop.json").display()
            )
        );
        assert!(std::fs::symlink_metadata(folder.join("shop.json")).unwrap().is_symlink(), "the link is left");
        assert!(names_in(&repo).is_empty(), "and nothing made where it leads");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_write_keeps_the_files_permissions_and_refuses_a_folder() {
        use std::os::unix::fs::PermissionsExt;
        let root = std::env::temp_dir().join(format!("sw-write-mode-{}", std::process::id()));
        std::fs::create_dir_all(root.join("folder.json")).unwrap();
        let file = root.join("private.json");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_workflow_text(&file, "new").expect("written");
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);

        let refused = write_workflow_text(&root.join("folder.json"), "x").expect_err("a folder");
        assert!(
            refused.to_string().ends_with("folder.json is a folder, not a regular file: nothing was written"),
            "{refused}"
        );
        assert_eq!(names_in(&root), ["folder.json", "private.json"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
