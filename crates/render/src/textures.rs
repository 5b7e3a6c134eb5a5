//! Material textures on the GPU: PNG, JPEG and WebP images as RGBA8 with a mip chain made at
//! load (`mips`); KHR_texture_basisu's KTX2 images transcoded to a 4x4 block format the device
//! samples (BC7, ASTC or ETC2), with the file's own mip chain, else RGBA8.

use crate::basis::{Basis, Level, Target};
use crate::character::Texture;

/// The texture-compression features the device is asked for, where the adapter has them.
pub const TEXTURE_COMPRESSION: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_BC
    .union(wgpu::Features::TEXTURE_COMPRESSION_ASTC)
    .union(wgpu::Features::TEXTURE_COMPRESSION_ETC2);

/// What a `width` x `height` Basis texture becomes on a device with `features`, and its wgpu
/// format, sRGB or linear as `srgb` says: BC7 where the device samples BC, then ASTC 4x4, then
/// ETC2; RGBA8 where it samples none, or where the image's sides are not whole blocks (wgpu
/// needs whole blocks at level 0).
pub fn basis_target(
    features: wgpu::Features,
    (width, height): (u32, u32),
    srgb: bool,
) -> (Target, wgpu::TextureFormat) {
    use wgpu::TextureFormat as F;
    let whole_blocks = width.is_multiple_of(4) && height.is_multiple_of(4);
    let pick = |t, s, l| (t, if srgb { s } else { l });
    if whole_blocks && features.contains(wgpu::Features::TEXTURE_COMPRESSION_BC) {
        pick(Target::Bc7, F::Bc7RgbaUnormSrgb, F::Bc7RgbaUnorm)
    } else if whole_blocks && features.contains(wgpu::Features::TEXTURE_COMPRESSION_ASTC) {
        let block = wgpu::AstcBlock::B4x4;
        let astc = |channel| F::Astc { block, channel };
        pick(
            Target::Astc4x4,
            astc(wgpu::AstcChannel::UnormSrgb),
            astc(wgpu::AstcChannel::Unorm),
        )
    } else if whole_blocks && features.contains(wgpu::Features::TEXTURE_COMPRESSION_ETC2) {
        pick(Target::Etc2, F::Etc2Rgba8UnormSrgb, F::Etc2Rgba8Unorm)
    } else {
        pick(Target::Rgba8, F::Rgba8UnormSrgb, F::Rgba8Unorm)
    }
}

/// The levels a Basis texture uploads: its file's whole chain in the device's block format. A
/// file with one level whose sampler wants mipmaps goes as RGBA8 with a chain made here
/// instead (None), as a block format cannot be filtered down on the GPU.
fn basis_levels(
    device: &wgpu::Device,
    t: &Texture,
    basis: &Basis,
    srgb: bool,
) -> Option<(wgpu::TextureFormat, Target, Vec<Level>)> {
    if basis.levels == 1 && t.sampler.mipmap.is_some() {
        return None;
    }
    let (target, format) = basis_target(device.features(), (basis.width, basis.height), srgb);
    match basis.transcode(target, basis.levels) {
        Ok(levels) => Some((format, target, levels)),
        Err(e) => {
            log::warn!("{e}; the texture is drawn from its RGBA8 level 0");
            None
        }
    }
}

/// A texture of `format` (Rgba8UnormSrgb or Rgba8Unorm) holding `t`: a KTX2's transcoded levels
/// (in the matching block format), or its RGBA8 pixels and their mip chain (`mips::mip_chain`,
/// averaged in linear light when sRGB); and a view of it.
pub(super) fn texture_view(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    t: &Texture,
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    let srgb = format.is_srgb();
    let transcoded = t
        .basis
        .as_ref()
        .and_then(|b| basis_levels(device, t, b, srgb));
    let below;
    // (width, height, bytes) per level, borrowed from the transcode or from `t` and its chain.
    let (format, target, levels): (_, _, Vec<(u32, u32, &[u8])>) = match &transcoded {
        Some((format, target, levels)) => (
            *format,
            *target,
            levels
                .iter()
                .map(|l| (l.width, l.height, &l.data[..]))
                .collect(),
        ),
        None => {
            below = super::mips::mip_chain(t.width, t.height, &t.rgba8, srgb);
            let chain = below.iter().map(|(w, h, data)| (*w, *h, &data[..]));
            let full = (t.width, t.height, &t.rgba8[..]);
            (
                format,
                Target::Rgba8,
                std::iter::once(full).chain(chain).collect(),
            )
        }
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("material texture"),
        size: extent(t.width, t.height),
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let side = target.block_side();
    for (level, &(width, height, data)) in levels.iter().enumerate() {
        // A level's rows of blocks; its copy covers whole blocks (its physical size).
        let (across, down) = (width.div_ceil(side), height.div_ceil(side));
        let row = across * target.block_bytes();
        write_level(
            queue,
            &texture,
            level as u32,
            data,
            (row, down),
            extent(across * side, down * side),
        );
    }
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

fn extent(width: u32, height: u32) -> wgpu::Extent3d {
    wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    }
}

/// Writes `data` into mip level `level` of `texture`: `rows` rows of `row_bytes` bytes (texel
/// or block rows), covering `size`.
pub(super) fn write_level(
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    level: u32,
    data: &[u8],
    (row_bytes, rows): (u32, u32),
    size: wgpu::Extent3d,
) {
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: level,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        data,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(row_bytes),
            rows_per_image: Some(rows),
        },
        size,
    );
}
