//! A primitive's material: glTF's metallic-roughness PBR factors and textures (with
//! KHR_texture_transform), images decoded within bounds and shared between materials.

use std::collections::HashMap;

use glam::{Vec3, Vec4};

use super::accessor::Buffers;
use super::problem::Problems;
use crate::character::{
    AlphaMode, Filter, Material, MaterialTexture, Sampler, Texture, UvTransform, Wrap,
};

/// The most pixels on an image's side, and the most memory its decoding may take: a tiny file
/// that declares a huge image is refused, not allocated.
pub(super) const MAX_IMAGE_SIDE: u32 = 16_384;

pub(super) const MAX_IMAGE_DECODE_BYTES: u64 = 1 << 30;

/// Why an image was not decoded (its texture is then drawn without it).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(super) enum ImageError {
    #[error("the image does not exist")]
    Missing,
    #[error("its buffer view does not exist")]
    NoView,
    #[error("its buffer has no data: {0}")]
    NoData(super::accessor::NoData),
    #[error("its buffer was not loaded")]
    NotLoaded,
    #[error("its buffer view runs past its buffer")]
    PastBuffer,
    #[error(transparent)]
    Uri(#[from] super::uri::UriError),
    #[error("the image file is larger than {0}")]
    TooBig(String),
    #[error("the image has neither a uri nor a bufferView")]
    NoSource,
    #[error(transparent)]
    Ktx2(#[from] crate::basis::Ktx2Error),
    #[error("cannot read the image: {0}")]
    Unreadable(String),
    #[error("cannot decode the image (at most {MAX_IMAGE_SIDE} pixels a side, 1 GiB decoded): {0}")]
    Undecodable(String),
    #[error("{extension}'s source {named} names no image")]
    NoExtensionImage {
        extension: &'static str,
        named: String,
    },
    #[error("the texture names no image")]
    NoImage,
}

pub(super) fn decode_bounded(encoded: &[u8]) -> Result<image::DynamicImage, ImageError> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(encoded))
        .with_guessed_format()
        .map_err(|e| ImageError::Unreadable(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_IMAGE_DECODE_BYTES);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| ImageError::Undecodable(e.to_string()))
}

/// Decoded images by glTF image index (`None`: failed, already warned).
pub(super) struct TextureCache<'d> {
    pub(super) document: &'d gltf::Document,
    pub(super) decoded: HashMap<usize, Option<Texture>>,
}

pub(super) fn read_material(
    material: &gltf::Material<'_>,
    buffers: &Buffers,
    base: &super::UriBase,
    textures: &mut TextureCache<'_>,
    problems: &mut Problems,
) -> Material {
    let pbr = material.pbr_metallic_roughness();
    let mut loader = TextureLoader {
        buffers,
        base,
        textures,
        problems,
    };
    let mut load = |texture, tex_coord, transform| loader.load(texture, tex_coord, transform);
    // gltf 1.4 reads KHR_texture_transform on `textureInfo`s; on normal and occlusion textures
    // it is read from the raw extension (`texture_transform_of`).
    let base_color = pbr
        .base_color_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let metallic_roughness_texture = pbr
        .metallic_roughness_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let normal = material.normal_texture();
    let normal_scale = normal.as_ref().map_or(1.0, |n| n.scale());
    let normal_texture = normal.and_then(|n| {
        let (tex_coord, transform) =
            texture_transform_of(n.extension_value("KHR_texture_transform"), n.tex_coord());
        load(n.texture(), tex_coord, None).map(|t| MaterialTexture { transform, ..t })
    });
    let occlusion = material.occlusion_texture();
    let occlusion_strength = occlusion.as_ref().map_or(1.0, |o| o.strength());
    let occlusion_texture = occlusion.and_then(|o| {
        let (tex_coord, transform) =
            texture_transform_of(o.extension_value("KHR_texture_transform"), o.tex_coord());
        load(o.texture(), tex_coord, None).map(|t| MaterialTexture { transform, ..t })
    });
    let emissive_texture = material
        .emissive_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let strength = material.emissive_strength().unwrap_or(1.0);
    Material {
        base_color_factor: Vec4::from(pbr.base_color_factor()),
        base_color_tex_coord: base_color.as_ref().map_or(0, |t| t.tex_coord),
        base_color_transform: base_color
            .as_ref()
            .map_or_else(UvTransform::default, |t| t.transform),
        base_color_texture: base_color.map(|t| t.texture),
        double_sided: material.double_sided(),
        alpha_mode: match material.alpha_mode() {
            gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                cutoff: material.alpha_cutoff().unwrap_or(0.5),
            },
            gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        },
        metallic_factor: pbr.metallic_factor(),
        roughness_factor: pbr.roughness_factor(),
        metallic_roughness_texture,
        normal_texture,
        normal_scale,
        occlusion_texture,
        occlusion_strength,
        emissive_factor: Vec3::from(material.emissive_factor()) * strength,
        emissive_texture,
        unlit: material.unlit(),
    }
}

/// What a material's textures are loaded from (the buffers, the folder its URIs may reach),
/// the images already decoded, and where problems are told.
struct TextureLoader<'a, 'd> {
    buffers: &'a Buffers,
    base: &'a super::UriBase,
    textures: &'a mut TextureCache<'d>,
    problems: &'a mut Problems,
}

impl TextureLoader<'_, '_> {
    /// A texture with its texture-coordinate set and KHR_texture_transform; none (warned)
    /// when its image is missing or does not decode.
    fn load(
        &mut self,
        texture: gltf::Texture<'_>,
        tex_coord: u32,
        transform: Option<gltf::texture::TextureTransform<'_>>,
    ) -> Option<MaterialTexture> {
        let image = match image_of(&texture, self.textures.document) {
            Ok(image) => image,
            Err(message) => {
                self.problems.warn(
                    format!("/textures/{}", texture.index()),
                    format!("{message}; drawn without it"),
                );
                return None;
            }
        };
        let decoded = Texture {
            sampler: sampler_of(&texture.sampler()),
            ..self.decoded(&image)?
        };
        let tex_coord = transform
            .as_ref()
            .and_then(|t| t.tex_coord())
            .unwrap_or(tex_coord);
        Some(MaterialTexture {
            texture: decoded,
            tex_coord: tex_coord.min(1),
            transform: transform.map_or_else(UvTransform::default, |t| {
                UvTransform::new(t.offset(), t.rotation(), t.scale())
            }),
        })
    }

    /// `image` decoded, once for every texture that reads it (a KTX2 image noted, a failure
    /// warned).
    fn decoded(&mut self, image: &gltf::Image<'_>) -> Option<Texture> {
        let (document, buffers, base) = (self.textures.document, self.buffers, self.base);
        let problems = &mut *self.problems;
        let at = format!("/images/{}", image.index());
        self.textures
            .decoded
            .entry(image.index())
            .or_insert_with(|| match decode_image(document, image, buffers, base) {
                Ok(t) => {
                    if let Some(b) = &t.basis {
                        problems.note(
                            at,
                            format!(
                                "KTX2 ({}, {}x{}, {} mip levels), transcoded to the GPU's BC7, \
                                 ASTC or ETC2 where it samples one, else RGBA8",
                                b.codec, b.width, b.height, b.levels
                            ),
                        );
                    }
                    Some(t)
                }
                Err(message) => {
                    problems.warn(at, format!("{message}; drawn without it"));
                    None
                }
            })
            .clone()
    }
}

/// KHR_texture_transform from its raw JSON: the texture-coordinate set it names (else
/// `tex_coord`) and its transform (glTF's defaults for absent fields).
pub(super) fn texture_transform_of(
    value: Option<&serde_json::Value>,
    tex_coord: u32,
) -> (u32, UvTransform) {
    let Some(v) = value else {
        return (tex_coord, UvTransform::default());
    };
    let pair = |key: &str, default: [f32; 2]| {
        v.get(key)
            .and_then(|p| p.as_array())
            .and_then(|p| Some([p.first()?.as_f64()? as f32, p.get(1)?.as_f64()? as f32]))
            .unwrap_or(default)
    };
    let rotation = v.get("rotation").and_then(|r| r.as_f64()).unwrap_or(0.0) as f32;
    let set = v
        .get("texCoord")
        .and_then(|t| t.as_u64())
        .map_or(tex_coord, |t| t as u32);
    (
        set,
        UvTransform::new(
            pair("offset", [0.0, 0.0]),
            rotation,
            pair("scale", [1.0, 1.0]),
        ),
    )
}

pub(super) fn decode_image(
    document: &gltf::Document,
    image: &gltf::Image<'_>,
    buffers: &Buffers,
    base: &super::UriBase,
) -> Result<Texture, ImageError> {
    // From the JSON, not gltf's Image::source(), which unwraps a missing mimeType or uri (a
    // panic on such files). The image crate finds the format from the bytes.
    let json = document
        .as_json()
        .images
        .get(image.index())
        .ok_or(ImageError::Missing)?;
    let encoded: Vec<u8> = match (&json.buffer_view, &json.uri) {
        (Some(view), _) => {
            let view = document
                .views()
                .nth(view.value())
                .ok_or(ImageError::NoView)?;
            let buffer = match buffers.get(view.buffer().index()) {
                Some(Ok(data)) => data,
                Some(Err(reason)) => return Err(ImageError::NoData(reason.clone())),
                None => return Err(ImageError::NotLoaded),
            };
            view.offset()
                .checked_add(view.length())
                .and_then(|end| buffer.get(view.offset()..end))
                .ok_or(ImageError::PastBuffer)?
                .to_vec()
        }
        (None, Some(uri)) => {
            let bytes = base.read(uri, crate::files::MAX_IMAGE_BYTES + 1)?;
            if bytes.len() as u64 > crate::files::MAX_IMAGE_BYTES {
                let most = crate::files::describe_bytes(crate::files::MAX_IMAGE_BYTES);
                return Err(ImageError::TooBig(most));
            }
            bytes
        }
        (None, None) => return Err(ImageError::NoSource),
    };
    if crate::basis::is_ktx2(&encoded) {
        let (basis, rgba8) = crate::basis::Basis::read(encoded, MAX_IMAGE_SIDE)?;
        return Ok(Texture {
            width: basis.width,
            height: basis.height,
            rgba8,
            basis: Some(basis),
            sampler: Sampler::default(),
        });
    }
    let decoded = decode_bounded(&encoded)?;
    let rgba = decoded.to_rgba8();
    Ok(Texture {
        width: rgba.width(),
        height: rgba.height(),
        rgba8: rgba.into_raw(),
        basis: None,
        sampler: Sampler::default(),
    })
}

/// The image a texture reads: KHR_texture_basisu's (KTX2) or EXT_texture_webp's when it names
/// one (preferred over the fallback, in that order, as three.js's GLTFLoader does where both
/// decode), else `source`.
fn image_of<'d>(
    texture: &gltf::Texture<'d>,
    document: &'d gltf::Document,
) -> Result<gltf::Image<'d>, ImageError> {
    for name in ["KHR_texture_basisu", "EXT_texture_webp"] {
        if let Some(ext) = texture.extension_value(name) {
            let index = ext.get("source").and_then(serde_json::Value::as_u64);
            return index
                .and_then(|i| document.images().nth(usize::try_from(i).ok()?))
                .ok_or_else(|| ImageError::NoExtensionImage {
                    extension: name,
                    named: ext.get("source").map_or("(none)".into(), |v| v.to_string()),
                });
        }
    }
    texture.source().ok_or(ImageError::NoImage)
}

/// A glTF sampler as the renderer takes it (undefined filters: `Sampler::default`'s).
fn sampler_of(s: &gltf::texture::Sampler<'_>) -> Sampler {
    use gltf::texture::{MagFilter, MinFilter, WrappingMode};
    let wrap = |w| match w {
        WrappingMode::Repeat => Wrap::Repeat,
        WrappingMode::ClampToEdge => Wrap::ClampToEdge,
        WrappingMode::MirroredRepeat => Wrap::MirroredRepeat,
    };
    let defaults = Sampler::default();
    let (min, mipmap) = match s.min_filter() {
        None => (defaults.min, defaults.mipmap),
        Some(MinFilter::Nearest) => (Filter::Nearest, None),
        Some(MinFilter::Linear) => (Filter::Linear, None),
        Some(MinFilter::NearestMipmapNearest) => (Filter::Nearest, Some(Filter::Nearest)),
        Some(MinFilter::LinearMipmapNearest) => (Filter::Linear, Some(Filter::Nearest)),
        Some(MinFilter::NearestMipmapLinear) => (Filter::Nearest, Some(Filter::Linear)),
        Some(MinFilter::LinearMipmapLinear) => (Filter::Linear, Some(Filter::Linear)),
    };
    Sampler {
        wrap_s: wrap(s.wrap_s()),
        wrap_t: wrap(s.wrap_t()),
        mag: match s.mag_filter() {
            None | Some(MagFilter::Linear) => Filter::Linear,
            Some(MagFilter::Nearest) => Filter::Nearest,
        },
        min,
        mipmap,
    }
}
