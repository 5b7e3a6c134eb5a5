//! Files the user gave the program by hand rather than by path (a browser page's file input or
//! drop: the page may read nothing else), and the reach that reads a model and its URIs from
//! them alone.
//!
//! Each file is keyed by the path the browser gave it, `/`-separated: its name, or its place in
//! a dropped or picked folder (`Fox/glTF/Fox.bin`). A model's relative URIs resolve against its
//! own key's folder, lexically: `..` may climb within the given tree, never above it, and a name
//! nobody gave is missing, not looked for anywhere else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files given by hand: `/`-separated paths and their bytes.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct GivenFiles {
    files: Arc<BTreeMap<String, Arc<[u8]>>>,
}

impl std::fmt::Debug for GivenFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.files.iter().map(|(k, v)| (k, v.len())))
            .finish()
    }
}

/// Why a given file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GivenError {
    #[error("was not among the files given (give it with the model, or its folder)")]
    NotGiven,
    #[error("climbs above the files given ({0})")]
    Above(String),
    #[error("is {size} bytes, over the limit of {most}")]
    TooLarge { size: u64, most: u64 },
}

impl GivenFiles {
    /// The files of `(path, bytes)` pairs; a later pair with the same path replaces an earlier.
    pub fn new(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        let files = files
            .into_iter()
            .map(|(name, bytes)| (normalise(&name).unwrap_or(name), bytes.into()))
            .collect();
        Self {
            files: Arc::new(files),
        }
    }

    /// The given paths, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The first given file that opens as a character (a `.glb`, `.gltf` or `.bvh`), preferring
    /// a glTF: what a drop of several files opens.
    pub fn model(&self) -> Option<&str> {
        let ends = |name: &str, ext: &str| {
            Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
        };
        let first = |exts: &[&str]| {
            self.names()
                .find(|n| exts.iter().any(|e| ends(n, e)))
                .map(|n| n as &str)
        };
        first(&["glb", "gltf"]).or_else(|| first(&["bvh"]))
    }

    /// The bytes of the file at `path` (as given, or lexically normalised), at most `most`.
    pub fn read(&self, path: &Path, most: u64) -> Result<Arc<[u8]>, GivenError> {
        let key = path.to_string_lossy().replace('\\', "/");
        let key = normalise(&key).ok_or(GivenError::Above(key))?;
        let bytes = self.files.get(&key).ok_or(GivenError::NotGiven)?;
        let size = bytes.len() as u64;
        if size > most {
            return Err(GivenError::TooLarge { size, most });
        }
        Ok(bytes.clone())
    }

    /// The path a URI relative to `folder` (a given model's) names among the given files
    /// (`uri` already percent-decoded and checked relative).
    pub fn beside(folder: &Path, uri: &str) -> Result<PathBuf, GivenError> {
        let joined = folder.join(uri).to_string_lossy().replace('\\', "/");
        normalise(&joined)
            .map(PathBuf::from)
            .ok_or(GivenError::Above(uri.to_string()))
    }
}

/// `a/./b/../c` as `a/c`; `None` when a `..` climbs above the start.
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given() -> GivenFiles {
        GivenFiles::new([
            ("Fox/glTF/Fox.gltf".to_string(), b"{}".to_vec()),
            ("Fox/glTF/Fox.bin".to_string(), vec![0; 8]),
            ("Fox/textures/Texture.png".to_string(), vec![1; 4]),
            ("notes.txt".to_string(), vec![2; 3]),
        ])
    }

    #[test]
    fn uris_resolve_beside_the_model_and_climb_only_within_what_was_given() {
        let files = given();
        let model = Path::new("Fox/glTF");
        let bin = GivenFiles::beside(model, "Fox.bin").unwrap();
        assert_eq!(files.read(&bin, 100).unwrap().len(), 8);
        let png = GivenFiles::beside(model, "../textures/./Texture.png").unwrap();
        assert_eq!(&*files.read(&png, 100).unwrap(), &[1u8; 4][..]);
        // Two levels up is the top of what was given; three is above it.
        let notes = GivenFiles::beside(model, "../../notes.txt").unwrap();
        assert_eq!(files.read(&notes, 100).unwrap().len(), 3);
        assert_eq!(
            GivenFiles::beside(model, "../../../etc/passwd"),
            Err(GivenError::Above("../../../etc/passwd".into()))
        );
        let missing = GivenFiles::beside(model, "Fox2.bin").unwrap();
        assert_eq!(files.read(&missing, 100), Err(GivenError::NotGiven));
        assert_eq!(
            files.read(&bin, 7),
            Err(GivenError::TooLarge { size: 8, most: 7 })
        );
    }

    #[test]
    fn a_drop_opens_its_gltf_before_its_bvh_and_nothing_else() {
        assert_eq!(given().model(), Some("Fox/glTF/Fox.gltf"));
        let take = GivenFiles::new([
            ("walk.BVH".to_string(), vec![]),
            ("readme.md".to_string(), vec![]),
        ]);
        assert_eq!(take.model(), Some("walk.BVH"));
        assert_eq!(
            GivenFiles::new([("a.png".to_string(), vec![])]).model(),
            None
        );
    }
}
