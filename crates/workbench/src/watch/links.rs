//! Where the workflows' symbolic links lead. A link may lead to another link (a repository
//! that keeps its workflow as a link into a shared one), so each is followed hop by hop, and
//! the folder of every hop is watched: an edit at the end of the chain changes the workflow,
//! and a retarget on the way changes where it leads. A folder on the way may be a link too
//! (`shared/current -> v1`, retargeted at each release): the folder that holds it is watched
//! as well, so its retarget is seen. A link into a folder not made yet (a repository still
//! to be cloned) is awaited from the nearest folder above it that is there.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use crate::Library;

/// The most links followed from one link, folder links on its way counted too, as the kernel
/// gives up after 40 (ELOOP): a longer chain is watched that far, and a loop only once round.
const MOST_HOPS: usize = 40;

#[derive(Default)]
pub(super) struct Links {
    /// For each link's id, every path its chain passes after the link itself (the links on
    /// the way, folder links too, and the file at its end), in its folder's canonical form:
    /// notify names a path by the folder watched, and the folders watched are canonical.
    pub chains: BTreeMap<String, Vec<PathBuf>>,
    /// The folders those paths are in, and for a chain that leads into a folder not there
    /// (yet), or for the skills folder not made yet, the nearest folder above it that is;
    /// but for `own` (watched already).
    pub folders: BTreeSet<PathBuf>,
    /// In such a nearest folder, the path that is next on the way to the missing one: its
    /// making lets the chain go on (or the skills folder be watched).
    pub awaited: BTreeSet<PathBuf>,
}

impl Links {
    /// Reads every link in the folders watched for the library (`own`: the workflows
    /// folder, and the skills folder, whose links are skills kept elsewhere just as well),
    /// leaving those folders out of [`Links::folders`]. The skills folder, when it is not
    /// one of `own` (not made yet), is awaited.
    pub fn read(library: &Library, own: &[PathBuf]) -> Self {
        let mut links = Self::default();
        if !own.iter().any(|folder| folder == library.skills_dir()) {
            links.await_folder(library.skills_dir(), own);
        }
        let entries = own.iter().filter_map(|folder| std::fs::read_dir(folder).ok()).flatten();
        for entry in entries.flatten() {
            let is_link = entry.file_type().is_ok_and(|kind| kind.is_symlink());
            if let (true, Some(id)) = (is_link, library.id_of(&entry.path())) {
                let chain = links.follow(&entry.path(), own);
                links.chains.insert(id, chain);
            }
        }
        links
    }

    /// The ids of the links whose chain passes `path`.
    pub fn ids_through<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a String> {
        self.chains.iter().filter(move |(_, chain)| chain.iter().any(|hop| hop == path)).map(|(id, _)| id)
    }

    /// The paths the link at `link` leads through, as far as they go: a relative link is read
    /// from the folder it is in. A link that leads nowhere still counts when its folder is
    /// there, so its file appearing is seen.
    fn follow(&mut self, link: &Path, own: &[PathBuf]) -> Vec<PathBuf> {
        let mut chain: Vec<PathBuf> = Vec::new();
        let mut followed = 0;
        let mut at = link.to_path_buf();
        while followed < MOST_HOPS {
            let (Ok(to), Some(from)) = (std::fs::read_link(&at), at.parent()) else { break };
            followed += 1;
            let to = from.join(to);
            let (Some(folder), Some(name)) = (to.parent(), to.file_name()) else { break };
            let Some(folder) = self.walk(folder, &mut chain, &mut followed, own) else { break };
            let hop = folder.join(name);
            if chain.contains(&hop) {
                break;
            }
            self.watch(folder, own);
            chain.push(hop.clone());
            at = hop;
        }
        chain
    }

    /// Where `folder` is, canonical, found as the kernel finds it, a name at a time: a folder
    /// link on the way (`shared/current -> v1`) joins `chain` and the folder it is in is
    /// watched, so its retarget is seen. A folder missing on the way is awaited, and `None`
    /// given then, or when more than [`MOST_HOPS`] links in all are passed (a loop of folder
    /// links: each is in `chain` once).
    fn walk(
        &mut self,
        folder: &Path,
        chain: &mut Vec<PathBuf>,
        followed: &mut usize,
        own: &[PathBuf],
    ) -> Option<PathBuf> {
        // The names still to go, the next last; a link's target goes in front of the rest.
        let mut names: Vec<OsString> = Vec::new();
        let ahead = |names: &mut Vec<OsString>, path: &Path| {
            names.extend(path.components().rev().map(|name| name.as_os_str().to_owned()));
        };
        ahead(&mut names, folder);
        let mut at = PathBuf::new();
        while let Some(name) = names.pop() {
            match Path::new(&name).components().next() {
                // `at` has no links in it, so its parent is where `..` leads.
                Some(Component::ParentDir) => {
                    at.pop();
                }
                Some(Component::Normal(_)) => {
                    let next = at.join(&name);
                    match std::fs::symlink_metadata(&next) {
                        Ok(kind) if kind.is_symlink() => {
                            *followed += 1;
                            if *followed > MOST_HOPS {
                                return None;
                            }
                            self.watch(at.clone(), own);
                            if !chain.contains(&next) {
                                chain.push(next.clone());
                            }
                            ahead(&mut names, &std::fs::read_link(&next).ok()?);
                        }
                        Ok(kind) if kind.is_dir() => at = next,
                        // Missing, or a file where a folder should be: its making is awaited.
                        _ => {
                            self.watch(at, own);
                            self.awaited.insert(next);
                            return None;
                        }
                    }
                }
                Some(Component::CurDir) | None => {}
                Some(Component::RootDir | Component::Prefix(_)) => at.push(&name),
            }
        }
        Some(at)
    }

    /// Awaits the folder `missing`: a folder link on the way to it is awaited too, as its
    /// retarget may make it there. Nothing more when it is there after all (made just now).
    fn await_folder(&mut self, missing: &Path, own: &[PathBuf]) {
        let mut on_the_way = Vec::new();
        self.walk(missing, &mut on_the_way, &mut 0, own);
        self.awaited.extend(on_the_way);
    }

    /// Watches `folder`, but for `own` (watched already).
    fn watch(&mut self, folder: PathBuf, own: &[PathBuf]) {
        if !own.contains(&folder) {
            self.folders.insert(folder);
        }
    }
}
