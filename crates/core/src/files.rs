//! Reading the files a user names and the files those point at, bounded: only regular files
//! (never a device such as `/dev/zero`, a FIFO or a directory, even through a symlink), never
//! more than a documented cap, checked by the file's size before a byte is read and by the
//! bytes read while reading (a file that grows stops at the cap).

use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a file was not read or written. Reading errors say what is wrong with the file; the
/// caller names it (as a glTF, a state machine, a ground).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read the file: {0}")]
    Read(std::io::Error),
    #[error("is a directory, not a file")]
    Directory,
    #[error(
        "is not a regular file (a device, a FIFO or a socket): not read, since it may never end"
    )]
    NotRegular,
    #[error("is {}, more than the {} this viewer reads", describe_bytes(*size), describe_bytes(*cap))]
    TooBig { size: u64, cap: u64 },
    #[error("is not UTF-8 text: {0}")]
    NotText(std::string::FromUtf8Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: it names no file", path.display())]
    NoFileName { path: PathBuf },
    #[error("cannot write {}: a folder has that name (an output is a file)", path.display())]
    FolderInTheWay { path: PathBuf },
    #[error("cannot write {}: its folder {} does not exist", path.display(), folder.display())]
    NoFolder { path: PathBuf, folder: PathBuf },
}

/// The largest model file read (`.gltf` or `.glb`): 2 GiB. A GLB's lengths are 32-bit; past this
/// a file would not fit the GPU buffers anyway.
pub const MAX_MODEL_BYTES: u64 = 2 << 30;
/// The largest JSON side file read (a state machine, a ground): 16 MiB.
pub const MAX_JSON_BYTES: u64 = 16 << 20;
/// The largest external image file read: 256 MiB.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// A size in words: `2147483648 bytes (2 GiB)`.
pub fn describe_bytes(n: u64) -> String {
    if n >= 1 << 30 {
        format!("{n} bytes ({:.1} GiB)", n as f64 / (1u64 << 30) as f64)
    } else if n >= 1 << 20 {
        format!("{n} bytes ({:.1} MiB)", n as f64 / (1u64 << 20) as f64)
    } else {
        format!("{n} bytes")
    }
}

/// Opens `path` for reading when it is a regular file, and returns it with its size.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), FileError> {
    let meta = std::fs::metadata(path).map_err(FileError::Read)?;
    if meta.is_dir() {
        return Err(FileError::Directory);
    }
    if !meta.is_file() {
        return Err(FileError::NotRegular);
    }
    let file = std::fs::File::open(path).map_err(FileError::Read)?;
    Ok((file, meta.len()))
}

/// A regular file of at most `cap` bytes, opened for reading (its kind and size checked
/// before it is opened), for a reader that streams it.
pub fn open_regular_capped(path: &Path, cap: u64) -> Result<std::fs::File, FileError> {
    let (file, size) = open_regular(path)?;
    if size > cap {
        return Err(FileError::TooBig { size, cap });
    }
    Ok(file)
}

/// The whole of a regular file of at most `cap` bytes.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, FileError> {
    let (file, size) = open_regular(path)?;
    if size > cap {
        return Err(FileError::TooBig { size, cap });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::Read)?;
    if bytes.len() as u64 > cap {
        let size = bytes.len() as u64;
        return Err(FileError::TooBig { size, cap });
    }
    Ok(bytes)
}

/// A regular file of at most `cap` bytes, as UTF-8 text.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, FileError> {
    String::from_utf8(read_capped(path, cap)?).map_err(FileError::NotText)
}

/// The first `len` bytes of a regular file (fewer when it is shorter): what an external buffer
/// declares it holds, never more.
pub fn read_prefix(path: &Path, len: u64) -> Result<Vec<u8>, FileError> {
    let (file, size) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(size.min(len) as usize);
    file.take(len)
        .read_to_end(&mut bytes)
        .map_err(FileError::Read)?;
    Ok(bytes)
}

/// A text (a name from a file) shortened for a message: at most 60 characters, with its length
/// said when it was cut.
pub fn shown(text: &str) -> String {
    const MOST: usize = 60;
    match text.char_indices().nth(MOST) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn devices_and_folders_are_refused_before_a_byte_is_read() {
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            if Path::new(device).exists() {
                let e = read_capped(Path::new(device), 1 << 20).unwrap_err();
                assert!(
                    e.to_string().contains("not a regular file"),
                    "{device}: {e}"
                );
                assert!(read_prefix(Path::new(device), 168).is_err());
            }
        }
        let e = read_capped(Path::new(env!("CARGO_MANIFEST_DIR")), 10).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
    }

    #[test]
    fn a_file_past_its_cap_is_refused_by_its_size_and_a_prefix_stops_at_its_length() {
        let dir = std::env::temp_dir().join(format!("skinscope-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.bin");
        std::fs::write(&path, [7u8; 10]).unwrap();
        assert_eq!(read_capped(&path, 10).unwrap().len(), 10);
        let e = read_capped(&path, 9).unwrap_err();
        assert!(
            e.to_string()
                .contains("is 10 bytes, more than the 9 bytes this viewer reads"),
            "{e}"
        );
        assert_eq!(read_prefix(&path, 4).unwrap(), [7u8; 4]);
        assert_eq!(read_prefix(&path, 40).unwrap().len(), 10);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn long_names_are_shortened_with_their_length() {
        assert_eq!(shown("walk"), "walk");
        let long = "x".repeat(10_000_000);
        let s = shown(&long);
        assert!(s.len() < 100 && s.ends_with("... (10000000 bytes)"), "{s}");
    }
}
