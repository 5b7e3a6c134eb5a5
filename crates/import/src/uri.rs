//! A glTF's buffer and image URIs resolved as glTF defines them (a `data:` URI, or a path
//! relative to the file's folder, percent-encoded) and confined: the path is decoded before any
//! check, then resolved with its symlinks followed, and read only when it lies inside the folder
//! tree the model may read (its own folder unless the user named a wider one) and outside the
//! kernel's `/proc`, `/sys` and `/dev`. A browser viewer is confined the same way, to what the
//! user dropped on it.

use std::path::{Path, PathBuf};

use crate::given::GivenFiles;

/// The folder tree a model's URIs may name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    /// The model's own folder and the folders under it.
    #[default]
    ModelFolder,
    /// This folder and the folders under it (`--asset-root`): a model whose textures sit in a
    /// sibling folder of an exported asset tree (`../textures/a.png`).
    Root(PathBuf),
    /// Any regular file outside the kernel's folders (the panel's "allow files outside the
    /// model's folder").
    Anywhere,
    /// Only the files the user gave by hand (a browser page's file input or drop): the model is
    /// one of them, and its URIs name others; the file system is never read.
    Given(GivenFiles),
}

/// The remedy a file outside the reach is refused with: the application says how to widen it
/// (a command-line option, a switch in the panel).
pub const WIDER_REACH: &str = "a reach that holds both reads it";

/// Folders never read from, whatever the reach: their files are the kernel's, not a model's.
const KERNEL_FOLDERS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// Where a model's relative URIs start and how far they may go.
pub(crate) struct UriBase {
    folder: PathBuf,
    reach: Reach,
}

impl UriBase {
    /// The URIs of the model at `model` (a file whose folder they are relative to).
    pub(crate) fn of_model(model: &Path, reach: Reach) -> Self {
        let folder = model
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        Self { folder, reach }
    }

    /// The URI's bytes, at most `most` of them: a `data:` URI decoded, or a regular file inside
    /// the reach.
    pub(crate) fn read(&self, uri: &str, most: u64) -> Result<Vec<u8>, UriError> {
        if uri.starts_with("data:") {
            return gltf::buffer::Data::from_source(gltf::buffer::Source::Uri(uri), None)
                .map(|d| d.0)
                .map_err(|e| UriError::DataUri(e.to_string()));
        }
        let path = self.resolve(uri)?;
        if let Reach::Given(files) = &self.reach {
            return files
                .read(&path, u64::MAX)
                .map(|bytes| bytes[..bytes.len().min(most as usize)].to_vec())
                .map_err(|e| UriError::Read {
                    path,
                    why: e.to_string(),
                });
        }
        crate::files::read_prefix(&path, most).map_err(|e| UriError::Read {
            path,
            why: e.to_string(),
        })
    }

    /// The file a relative URI names, symlinks followed, when the reach allows it.
    pub(crate) fn resolve(&self, uri: &str) -> Result<PathBuf, UriError> {
        let shown = crate::files::shown(uri).to_string();
        // Decoded first: `%2Fetc%2Fpasswd` is the absolute path it spells.
        let Some(decoded) = percent_decode(uri) else {
            return Err(UriError::Invalid { uri: shown });
        };
        if names_a_scheme(&decoded) || is_rooted(&decoded) {
            return Err(UriError::NotRelative { uri: shown });
        }
        if let Reach::Given(_) = &self.reach {
            // Among the given files, lexically: nothing on disk is looked at.
            return GivenFiles::beside(&self.folder, &decoded).map_err(|e| UriError::Read {
                path: PathBuf::from(&shown),
                why: e.to_string(),
            });
        }
        let joined = self.folder.join(&decoded);
        let resolved = joined.canonicalize().map_err(|e| UriError::Missing {
            path: joined.clone(),
            why: e.to_string(),
        })?;
        if let Some(&kernel) = KERNEL_FOLDERS.iter().find(|k| resolved.starts_with(k)) {
            return Err(UriError::Kernel {
                uri: shown,
                path: resolved,
                kernel,
            });
        }
        let root = match &self.reach {
            Reach::Anywhere => return Ok(resolved),
            Reach::ModelFolder => &self.folder,
            Reach::Root(root) => root,
            Reach::Given(_) => &self.folder,
        };
        let root = root.canonicalize().map_err(|e| UriError::Folder {
            folder: root.clone(),
            why: e.to_string(),
        })?;
        if !resolved.starts_with(&root) {
            let whose = match self.reach {
                Reach::ModelFolder => "the model's folder",
                _ => "the asset root",
            };
            return Err(UriError::Outside {
                uri: shown,
                path: resolved,
                whose,
                root,
            });
        }
        Ok(resolved)
    }
}

/// Why a buffer's or an image's URI was not read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UriError {
    #[error("cannot decode its data: URI: {0}")]
    DataUri(String),
    #[error("{uri:?} is not a valid URI")]
    Invalid { uri: String },
    #[error("{uri:?} is not a relative path or a data: URI (glTF's two kinds of URI): not read")]
    NotRelative { uri: String },
    #[error("{}: cannot read the file: {why}", path.display())]
    Missing { path: PathBuf, why: String },
    #[error("{uri:?} resolves to {}, in {kernel}, the kernel's files, not a model's: not read", path.display())]
    Kernel {
        uri: String,
        path: PathBuf,
        kernel: &'static str,
    },
    #[error("the folder {} cannot be read: {why}", folder.display())]
    Folder { folder: PathBuf, why: String },
    /// Outside the reach: the application names its way to widen it in place of
    /// `WIDER_REACH`.
    #[error("{uri:?} resolves to {}, outside {whose} {}: not read ({WIDER_REACH})", path.display(), root.display())]
    Outside {
        uri: String,
        path: PathBuf,
        whose: &'static str,
        root: PathBuf,
    },
    #[error("{}: {why}", path.display())]
    Read { path: PathBuf, why: String },
}

/// `file:`, `http:`, `C:`: a URI scheme (or a Windows drive) before any path separator.
fn names_a_scheme(path: &str) -> bool {
    path.split_once(':')
        .is_some_and(|(s, _)| !s.is_empty() && !s.contains(['/', '\\']))
}

/// An absolute path (`/etc/passwd`, `\\server\share`, `\x`).
fn is_rooted(path: &str) -> bool {
    path.starts_with(['/', '\\']) || Path::new(path).has_root()
}

/// `%XX` escapes decoded (URIs in glTF are percent-encoded); `None` for a bad escape or text
/// that is not UTF-8.
fn percent_decode(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_decoded_before_the_checks() {
        assert_eq!(percent_decode("%2Fetc%2Fpasswd").unwrap(), "/etc/passwd");
        assert_eq!(percent_decode("tri%20angle.bin").unwrap(), "tri angle.bin");
        assert_eq!(percent_decode("a%2"), None);
        assert_eq!(percent_decode("a%zz"), None);
        let base = UriBase::of_model(Path::new("/tmp/model.gltf"), Reach::ModelFolder);
        for uri in [
            "%2Fetc%2Fpasswd",
            "file%3A%2F%2F%2Fetc%2Fpasswd",
            "%5Cetc",
            "C%3A%5Cx",
        ] {
            let e = base.resolve(uri).unwrap_err();
            assert_eq!(e, UriError::NotRelative { uri: uri.into() }, "{uri}: {e}");
            assert!(
                e.to_string().contains("is not a relative path"),
                "{uri}: {e}"
            );
        }
    }
}
