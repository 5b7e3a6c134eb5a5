//! KHR_texture_basisu's images: KTX2 containers holding Basis Universal ETC1S (BasisLZ) or UASTC
//! (raw or Zstandard) data. Checked within bounds at load, where level 0 is also decoded to RGBA8
//! for the CPU's readers; transcoded again, with the file's own mip chain, to what the GPU that
//! draws them samples best (`Target`). CPU only: the renderer picks the target from its
//! device's features.
//!
//! The transcoder is the `basisu` crate (a pure-Rust port of Binomial's reference transcoder);
//! its calls are fenced (`contain::quietly`), so a corrupt file it trips over is an error, never
//! a crash, and prints no panic.

use std::sync::Arc;

use basisu::{DecodeFlags, SourceFormat, TargetFormat, Transcoder};

/// The twelve bytes every KTX2 file starts with.
const KTX2_MAGIC: [u8; 12] = [
    0xAB, b'K', b'T', b'X', b' ', b'2', b'0', 0xBB, b'\r', b'\n', 0x1A, b'\n',
];

/// The KTX2 header and the start of its level index (header: 48 bytes; index: 32).
const LEVEL_INDEX_AT: usize = 80;

/// Whether `bytes` are a KTX2 container.
pub fn is_ktx2(bytes: &[u8]) -> bool {
    bytes.starts_with(&KTX2_MAGIC)
}

/// What a Basis texture becomes on the GPU: a 4x4 block format where the adapter samples one
/// (BC7 on desktops, ASTC and ETC2 on phones, as the Khronos Sample Viewer and three.js's
/// KTX2Loader choose), else plain RGBA8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Bc7,
    Astc4x4,
    Etc2,
    Rgba8,
}

impl Target {
    /// The side of its blocks in texels (1 for RGBA8).
    pub fn block_side(self) -> u32 {
        match self {
            Target::Rgba8 => 1,
            _ => 4,
        }
    }

    /// Bytes per block (per texel for RGBA8).
    pub fn block_bytes(self) -> u32 {
        match self {
            Target::Rgba8 => 4,
            _ => 16,
        }
    }

    fn format(self) -> TargetFormat {
        match self {
            Target::Bc7 => TargetFormat::Bc7Rgba,
            Target::Astc4x4 => TargetFormat::Astc4x4Rgba,
            Target::Etc2 => TargetFormat::Etc2Rgba,
            Target::Rgba8 => TargetFormat::Rgba32,
        }
    }
}

/// One transcoded mip level: `width` x `height` texels, rows of blocks (or texels) packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

/// A checked KTX2 Basis texture: the file's bytes, shared, and what they hold.
#[derive(Clone, Debug)]
pub struct Basis {
    bytes: Arc<[u8]>,
    pub width: u32,
    pub height: u32,
    /// Mip levels the file carries (1: the full-size image only).
    pub levels: u32,
    /// "ETC1S" or "UASTC".
    pub codec: &'static str,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | (u64::from(u32_at(b, at + 4)) << 32)
}

/// Why a KTX2 file (KHR_texture_basisu) is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Ktx2Error {
    #[error("the image is not a KTX2 file")]
    NotKtx2,
    #[error("the KTX2 file is {0} bytes, shorter than its header")]
    ShortHeader(usize),
    #[error(
        "the KTX2 file's vkFormat is {0}; KHR_texture_basisu needs 0 (VK_FORMAT_UNDEFINED: Basis Universal data)"
    )]
    VkFormat(u32),
    #[error("the KTX2 image is {width}x{height}; at most {most} texels a side, and not 0")]
    Size { width: u32, height: u32, most: u32 },
    #[error(
        "the KTX2 file holds depth {depth}, {layers} layers and {faces} faces; a glTF texture is one 2D image"
    )]
    NotOneImage { depth: u32, layers: u32, faces: u32 },
    #[error(
        "the KTX2 file declares {levels} mip levels; a {width}x{height} image has at most {most}"
    )]
    Levels {
        levels: u32,
        width: u32,
        height: u32,
        most: u32,
    },
    #[error(
        "the KTX2 file's supercompression scheme is {0}; KHR_texture_basisu allows none (0), BasisLZ (1) and Zstandard (2)"
    )]
    Supercompression(u32),
    #[error("the KTX2 file ends inside its level index")]
    ShortIndex,
    #[error(
        "the KTX2 file's level {level} ({length} bytes at {offset}) runs past its end ({size} bytes)"
    )]
    LevelPastEnd {
        level: usize,
        length: u64,
        offset: u64,
        size: usize,
    },
    #[error(
        "the KTX2 file's level {level} declares {inflated} bytes uncompressed; a {width}x{height} image needs at most {most}"
    )]
    LevelTooBig {
        level: usize,
        inflated: u64,
        width: u32,
        height: u32,
        most: u64,
    },
    #[error("the KTX2 file holds {0} data; KHR_texture_basisu allows ETC1S and UASTC (LDR)")]
    Codec(String),
    #[error("the KTX2 file has no image")]
    NoImage,
    /// The transcoder refused the data (`step`: opening or transcoding), or failed on it.
    #[error("the KTX2 file does not {step}: {why}")]
    Transcoder { step: &'static str, why: String },
}

/// Runs a transcoder call for `step` ("open", "transcode"), turning its errors and any panic
/// into `Ktx2Error::Transcoder`.
fn fenced<T>(
    step: &'static str,
    f: impl FnOnce() -> Result<T, basisu::Error>,
) -> Result<T, Ktx2Error> {
    let why = match crate::contain::quietly(f) {
        Ok(Ok(t)) => return Ok(t),
        Ok(Err(e)) => format!("{e:?}"),
        Err(_) => "the transcoder failed on corrupt data".to_string(),
    };
    Err(Ktx2Error::Transcoder { step, why })
}

impl Basis {
    /// Checks a KTX2 file's header against KHR_texture_basisu's rules and the bounds (at most
    /// `max_side` texels a side; each level's declared size what its blocks need), opens it, and
    /// decodes level 0 to RGBA8.
    pub fn read(bytes: Vec<u8>, max_side: u32) -> Result<(Basis, Vec<u8>), Ktx2Error> {
        if !is_ktx2(&bytes) {
            return Err(Ktx2Error::NotKtx2);
        }
        if bytes.len() < LEVEL_INDEX_AT {
            return Err(Ktx2Error::ShortHeader(bytes.len()));
        }
        let field = |i: usize| u32_at(&bytes, 12 + 4 * i);
        let (vk_format, width, height, depth) = (field(0), field(2), field(3), field(4));
        let (layers, faces, levels, scheme) = (field(5), field(6), field(7), field(8));
        if vk_format != 0 {
            return Err(Ktx2Error::VkFormat(vk_format));
        }
        if width == 0 || height == 0 || width > max_side || height > max_side {
            let most = max_side;
            return Err(Ktx2Error::Size {
                width,
                height,
                most,
            });
        }
        if depth > 1 || layers > 1 || faces != 1 {
            return Err(Ktx2Error::NotOneImage {
                depth,
                layers,
                faces,
            });
        }
        let full_chain = 32 - width.max(height).leading_zeros();
        let levels = levels.max(1);
        if levels > full_chain {
            return Err(Ktx2Error::Levels {
                levels,
                width,
                height,
                most: full_chain,
            });
        }
        if scheme > 2 {
            return Err(Ktx2Error::Supercompression(scheme));
        }
        let index_end = LEVEL_INDEX_AT + 24 * levels as usize;
        if bytes.len() < index_end {
            return Err(Ktx2Error::ShortIndex);
        }
        // A level's (uncompressed) bytes are at most a 16-byte block per 4x4 texels of level 0:
        // a Zstandard level is never inflated past that.
        let most = 16 * u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4));
        for level in 0..levels as usize {
            let at = LEVEL_INDEX_AT + 24 * level;
            let (offset, length) = (u64_at(&bytes, at), u64_at(&bytes, at + 8));
            let inflated = u64_at(&bytes, at + 16);
            if offset
                .checked_add(length)
                .is_none_or(|end| end > bytes.len() as u64)
            {
                return Err(Ktx2Error::LevelPastEnd {
                    level,
                    length,
                    offset,
                    size: bytes.len(),
                });
            }
            if inflated > most {
                return Err(Ktx2Error::LevelTooBig {
                    level,
                    inflated,
                    width,
                    height,
                    most,
                });
            }
        }
        let bytes: Arc<[u8]> = bytes.into();
        let codec = fenced("open", || {
            Transcoder::new(&bytes).map(|t| t.source_format())
        })?;
        let codec = match codec {
            SourceFormat::Etc1s => "ETC1S",
            SourceFormat::UastcLdr => "UASTC",
            other => {
                return Err(Ktx2Error::Codec(format!("{other:?}")));
            }
        };
        let basis = Basis {
            bytes,
            width,
            height,
            levels,
            codec,
        };
        let level0 = basis.transcode(Target::Rgba8, 1)?.pop();
        let rgba = level0.ok_or(Ktx2Error::NoImage)?.data;
        Ok((basis, rgba))
    }

    /// The first `levels` mip levels (at most the file's) transcoded to `target`.
    pub fn transcode(&self, target: Target, levels: u32) -> Result<Vec<Level>, Ktx2Error> {
        fenced("transcode", || {
            let t = Transcoder::new(&self.bytes)?;
            (0..levels.min(self.levels))
                .map(|level| {
                    let info = t.image_level_info(level)?;
                    let data = t.transcode(level, target.format(), DecodeFlags::HIGH_QUALITY)?;
                    Ok(Level {
                        width: info.width,
                        height: info.height,
                        data,
                    })
                })
                .collect()
        })
    }
}
