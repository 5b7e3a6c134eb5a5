//! Images written (`render --out`, the window's screenshot, a recording's frames): sRGB RGBA8
//! pixels encoded as PNG or JPEG in memory, then written whole or not at all.

use std::path::Path;

/// The image formats written (`render --out`, the window's `--screenshot`), by extension:
/// `.png`, or `.jpg` / `.jpeg`.
pub fn image_format(path: &Path) -> Option<image::ImageFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some(image::ImageFormat::Png),
        "jpg" | "jpeg" => Some(image::ImageFormat::Jpeg),
        _ => None,
    }
}

/// Writes sRGB RGBA8 pixels as the path's format (JPEG drops the alpha channel; anything but
/// `.jpg` / `.jpeg` is PNG), encoded whole first and written whole or not at all.
pub fn write_image(path: &Path, size: (u32, u32), rgba: &[u8]) -> Result<(), ImageError> {
    let format = image_format(path).unwrap_or(image::ImageFormat::Png);
    write_encoded(path, size, rgba, format)
}

/// Writes tightly packed sRGB RGBA8 pixels as a PNG (whole or not at all).
pub fn write_png(path: &Path, size: (u32, u32), rgba: &[u8]) -> Result<(), ImageError> {
    write_encoded(path, size, rgba, image::ImageFormat::Png)
}

/// Encodes the pixels as `format` in memory (RGB for JPEG, RGBA otherwise), then writes them
/// with `files::write_bytes_whole`.
fn write_encoded(
    path: &Path,
    size: (u32, u32),
    rgba: &[u8],
    format: image::ImageFormat,
) -> Result<(), ImageError> {
    let encoded = encode(path, size, rgba, format)?;
    Ok(crate::files::write_bytes_whole(path, &encoded)?)
}

/// Tightly packed sRGB RGBA8 pixels encoded as a PNG in memory (`path` names it in errors).
pub fn encode_png(path: &Path, size: (u32, u32), rgba: &[u8]) -> Result<Vec<u8>, ImageError> {
    encode(path, size, rgba, image::ImageFormat::Png)
}

fn encode(
    path: &Path,
    size: (u32, u32),
    rgba: &[u8],
    format: image::ImageFormat,
) -> Result<Vec<u8>, ImageError> {
    let rgb: Vec<u8>;
    let (pixels, color) = if format == image::ImageFormat::Jpeg {
        rgb = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (&rgb[..], image::ExtendedColorType::Rgb8)
    } else {
        (rgba, image::ExtendedColorType::Rgba8)
    };
    let mut encoded = Vec::new();
    image::write_buffer_with_format(
        &mut std::io::Cursor::new(&mut encoded),
        pixels,
        size.0,
        size.1,
        color,
        format,
    )
    .map_err(|source| ImageError::Encode {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(encoded)
}

/// Why an image was not written.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("cannot encode {}: {source}", path.display())]
    Encode {
        path: std::path::PathBuf,
        source: image::ImageError,
    },
    #[error(transparent)]
    File(#[from] crate::files::FileError),
}
