//! Where the workflows' symbolic links lead. A link may lead to another link (a repository
//! that keeps its workflow as a link into a shared one), so each is followed hop by hop, and
//! the folder of every hop is watched: an edit at the end of the chain changes the workflow,
//! and a retarget on the way changes where it leads. A link into a folder not made yet (a
//! repository still to be cloned) is awaited from the nearest folder above it that is there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::Library;

/// The most hops followed from one link, as the kernel gives up after 40 (ELOOP): a longer
/// chain is watched that far, and a loop only once round.
const MOST_HOPS: usize = 40;

#[derive(Default)]
pub(super) struct Links {
    /// For each link's id, every path its chain passes after the link itself, in its folder's
    /// canonical form: notify names a path by the folder watched, and the folders watched are
    /// canonical.
    pub chains: BTreeMap<String, Vec<PathBuf>>,
    /// The folders those paths are in, and for a chain that leads into a folder not there
    /// (yet), the nearest folder above it that is; but for `own` (watched already).
    pub folders: BTreeSet<PathBuf>,
    /// In such a nearest folder, the path that is next on the way to the missing one: its
    /// making lets the chain go on.
    pub awaited: BTreeSet<PathBuf>,
}

impl Links {
    /// Reads every link in the folders watched for the library (`own`: the workflows
    /// folder, and the skills folder, whose links are skills kept elsewhere just as well),
    /// leaving those folders out of [`Links::folders`].
    pub fn read(library: &Library, own: &[PathBuf]) -> Self {
        let mut links = Self::default();
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
        let mut at = link.to_path_buf();
        while chain.len() < MOST_HOPS {
            let (Ok(to), Some(from)) = (std::fs::read_link(&at), at.parent()) else { break };
            let to = from.join(to);
            let (Some(folder), Some(name)) = (to.parent(), to.file_name()) else { break };
            let Some(folder) = existing_folder(folder) else {
                self.await_folder(folder, own);
                break;
            };
            let hop = folder.join(name);
            if chain.contains(&hop) {
                break;
            }
            if !own.contains(&folder) {
                self.folders.insert(folder);
            }
            chain.push(hop.clone());
            at = hop;
        }
        chain
    }

    /// Watches for `missing` to be made from the nearest folder above it that is there, not
    /// from a whole tree: one folder, told of the one name on the way.
    fn await_folder(&mut self, missing: &Path, own: &[PathBuf]) {
        let mut below = missing;
        while let Some(above) = below.parent() {
            // `below` may end in `..`: then what is awaited is further up.
            if let (Some(folder), Some(name)) = (existing_folder(above), below.file_name()) {
                self.awaited.insert(folder.join(name));
                if !own.contains(&folder) {
                    self.folders.insert(folder);
                }
                return;
            }
            below = above;
        }
    }
}

/// `folder` canonical, when it is a folder.
fn existing_folder(folder: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(folder).ok().filter(|folder| folder.is_dir())
}
