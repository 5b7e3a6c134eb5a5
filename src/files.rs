//! Writing the files a user names, whole or not at all (`PartialFile`, `write_whole`), and the
//! bounded readers of the character core (`skinscope_core::files`) they sit beside.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

pub use skinscope_core::files::*;

/// Checks, before any work is done for it, that an output can be written at `path`: it names
/// a file, not a folder, in a folder that exists. (The write itself may still fail: a full
/// disk, no permission.)
pub fn check_output(path: &Path) -> Result<(), FileError> {
    if path.file_name().is_none() {
        return Err(FileError::NoFileName {
            path: path.to_path_buf(),
        });
    }
    if path.is_dir() {
        return Err(FileError::FolderInTheWay {
            path: path.to_path_buf(),
        });
    }
    let folder = path.parent().filter(|f| !f.as_os_str().is_empty());
    if let Some(folder) = folder
        && !folder.is_dir()
    {
        return Err(FileError::NoFolder {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
        });
    }
    Ok(())
}

/// Writes `path` whole or not at all: `write` fills a temporary file beside it, which is flushed
/// to the disk and checked, then renamed over `path`. On any failure (a full disk, a closed
/// device) the temporary file is removed and `path` is as it was.
pub fn write_whole(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let partial = PartialFile::reserve(path)?;
    let mut out = partial.open()?;
    write(&mut out).map_err(|e| partial.fail(e))?;
    partial.close(out)?;
    partial.commit()
}

/// The temporary files of every `PartialFile` not yet committed or dropped: what an interrupted
/// run removes (`hold_pending`) so that it leaves no litter.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary file still pending and returns the lock on them, for a run that
/// ends now (Ctrl-C, SIGTERM): holding it, no commit can rename a file into place after the
/// removal, so every output is whole or absent.
pub fn hold_pending() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut held = pending();
    for path in held.drain(..) {
        std::fs::remove_file(path).ok();
    }
    held
}

/// A file written over time (an animation's frames) that appears at `path` whole or not at all:
/// its bytes go to a temporary file beside it (`open`, `close`), renamed over `path` by
/// `commit`; dropped uncommitted (an error, a cancelled recording), the temporary file is
/// removed. The temporary file is created exclusively: a file or a symlink planted at its name
/// is an error, never followed.
pub struct PartialFile {
    path: PathBuf,
    temporary: PathBuf,
    /// Whether this run made the temporary file (only then is it removed).
    created: std::cell::Cell<bool>,
    committed: bool,
}

impl PartialFile {
    /// Names the temporary file beside `path` (opened by `open`, or written by another
    /// program: `ffmpeg`).
    pub fn reserve(path: &Path) -> Result<Self, FileError> {
        check_output(path)?;
        let name = path.file_name().ok_or_else(|| FileError::NoFileName {
            path: path.to_path_buf(),
        })?;
        let mut temporary = name.to_os_string();
        temporary.push(format!(".{}.partial", std::process::id()));
        let temporary = path.with_file_name(temporary);
        pending().push(temporary.clone());
        Ok(Self {
            path: path.to_path_buf(),
            temporary,
            created: std::cell::Cell::new(false),
            committed: false,
        })
    }

    /// Creates the temporary file, empty, for another program to write (`ffmpeg`): what is at
    /// its name is then ours.
    pub fn create_empty(&self) -> Result<(), FileError> {
        self.create().map(drop)
    }

    fn create(&self) -> Result<std::fs::File, FileError> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.temporary);
        self.created.set(file.is_ok());
        file.map_err(|e| {
            let e = if e.kind() == std::io::ErrorKind::AlreadyExists {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "its temporary file {} is already there (not followed, not \
                             overwritten): remove it and try again",
                        self.temporary.display()
                    ),
                )
            } else {
                e
            };
            self.fail(e)
        })
    }

    /// The temporary file's path.
    pub fn temporary(&self) -> &Path {
        &self.temporary
    }

    /// Creates the temporary file, buffered.
    pub fn open(&self) -> Result<std::io::BufWriter<std::fs::File>, FileError> {
        Ok(std::io::BufWriter::new(self.create()?))
    }

    /// Flushes what `open` gave to the disk (before `commit` renames it).
    pub fn close(&self, out: std::io::BufWriter<std::fs::File>) -> Result<(), FileError> {
        let file = out.into_inner().map_err(|e| self.fail(e.into_error()))?;
        file.sync_all().map_err(|e| self.fail(e))
    }

    /// Flushes the temporary file to the disk when its writer is gone (an encoder that
    /// flushed and dropped it).
    pub fn sync(&self) -> Result<(), FileError> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.temporary)
            .map_err(|e| self.fail(e))?;
        file.sync_all().map_err(|e| self.fail(e))
    }

    /// A write error, naming the file.
    pub fn fail(&self, source: std::io::Error) -> FileError {
        FileError::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// Renames the temporary file over `path`.
    pub fn commit(self) -> Result<(), FileError> {
        Self::commit_all(vec![self])
    }

    /// Renames every temporary file over its path, all of them before an interrupted run can
    /// remove what is pending (`hold_pending`): a numbered sequence appears whole or not at
    /// all. On a failure the files not yet renamed are removed.
    pub fn commit_all(files: Vec<Self>) -> Result<(), FileError> {
        let mut files = files.into_iter();
        let mut held = pending();
        for mut file in files.by_ref() {
            let renamed = std::fs::rename(&file.temporary, &file.path);
            if renamed.is_err() {
                std::fs::remove_file(&file.temporary).ok();
            }
            // Done with here, under the lock (its drop would take the lock again).
            file.committed = true;
            held.retain(|p| p != &file.temporary);
            if let Err(e) = renamed {
                let error = file.fail(e);
                drop(held);
                // The rest are removed by their drops.
                drop(files);
                return Err(error);
            }
        }
        Ok(())
    }
}

impl Drop for PartialFile {
    fn drop(&mut self) {
        if !self.committed {
            let mut held = pending();
            if self.created.get() {
                std::fs::remove_file(&self.temporary).ok();
            }
            held.retain(|p| p != &self.temporary);
        }
    }
}

/// `write_whole` of bytes already made.
pub fn write_bytes_whole(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_whole(path, |out| out.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_target_as_it_was_and_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("skinscope-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.obj");
        std::fs::write(&target, b"before").unwrap();
        // A writer that fails half way, as a full disk does.
        let e = write_whole(&target, |out| {
            out.write_all(b"half of it")?;
            Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "no space left on device",
            ))
        })
        .unwrap_err();
        assert!(e.to_string().contains("no space left on device"), "{e}");
        assert_eq!(std::fs::read(&target).unwrap(), b"before");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "a temporary file is left"
        );
        write_bytes_whole(&target, b"after").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"after");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // Where no file can be made, the error says so and nothing is written.
        let e = write_bytes_whole(&dir.join("missing/out.obj"), b"x").unwrap_err();
        assert!(e.to_string().contains("cannot write"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_symlink_planted_at_the_temporary_name_is_not_followed() {
        let dir = std::env::temp_dir().join(format!("skinscope-planted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, b"kept").unwrap();
        let target = dir.join("out.obj");
        let planted = dir.join(format!("out.obj.{}.partial", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let e = write_bytes_whole(&target, b"written").unwrap_err();
        assert!(e.to_string().contains("is already there"), "{e}");
        assert_eq!(std::fs::read(&victim).unwrap(), b"kept");
        assert!(!target.exists());
        // The planted link is left for the user to look at, not removed as ours.
        assert!(planted.symlink_metadata().is_ok());
        std::fs::remove_dir_all(&dir).ok();
    }
}
