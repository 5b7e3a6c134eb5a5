//! HDR environments (`--environment FILE.hdr|.exr`): an equirectangular (latitude-longitude)
//! image of linear RGB radiance, +Y up, its top row the zenith; read within bounds, and halved
//! on the CPU into the mip chain the GPU's prefiltering samples (`render::environment`). CPU
//! only; the default light, when no file is given, stays the project's generated sky
//! (`shaders/light.wgsl`).
//!
//! A direction d reads the image at u = 1/2 + atan2(d.z, d.x) / 2π, v = acos(d.y) / π (the
//! Khronos Sample Viewer's panorama mapping).

use std::f32::consts::PI;
use std::path::Path;

use glam::Vec3;

/// The widest image kept: wider ones are halved at load (the prefiltered maps' 128-texel faces
/// read at most a quarter of it).
pub const MAX_WIDTH: u32 = 2048;

/// The largest side a file may declare, and the most its decoding may allocate.
const MAX_SIDE: u32 = 16_384;
const MAX_DECODE_BYTES: u64 = 1 << 30;

/// The most texels an environment may have: 16384x4096 (or 8192x8192), 768 MiB decoded as RGB
/// floats. The decoded image and its first halving are all a load holds at once, so a load
/// stays under 1 GiB whatever the file; a run-length `.hdr` of 11 MB can declare 16384x10900
/// (2 GiB decoded), refused by its header before a texel is decoded.
pub const MAX_TEXELS: u64 = 16_384 * 4_096;

/// The most texels an OpenEXR environment may have: 8192x4096. The EXR decoder holds the file's
/// channels beside the decoded image (a 16384x4096 EXR peaked at 1.6 GB resident), so its cap is
/// half the `.hdr`'s, keeping a load under 1 GiB.
pub const MAX_EXR_TEXELS: u64 = 8_192 * 4_096;

/// The largest environment file read: 1 GiB (an uncompressed OpenEXR at `MAX_TEXELS` in half
/// floats is 400 MiB).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The largest radiance kept (half-float's largest finite value); NaN reads as 0.
const MAX_RADIANCE: f32 = 65_504.0;

/// Linear RGB radiance per texel, row by row from the zenith.
#[derive(Clone, Debug, PartialEq)]
pub struct EnvironmentImage {
    pub width: u32,
    pub height: u32,
    pub texels: Vec<[f32; 3]>,
}

/// How the environment is turned and scaled, and what is drawn behind the character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnvironmentView {
    /// About +Y, in degrees: the environment turned by this much (a direction d reads the image
    /// at d turned back by it).
    pub rotation_degrees: f32,
    /// Scales the environment's radiance (the generated sky's too).
    pub intensity: f32,
    pub background: Background,
}

impl Default for EnvironmentView {
    fn default() -> Self {
        Self {
            rotation_degrees: 0.0,
            intensity: 1.0,
            background: Background::Flat,
        }
    }
}

/// What is drawn where no surface is: the flat colour (`DrawOptions::background`), the
/// environment itself, or the environment blurred (its prefiltered level at roughness 0.5, as
/// the Sample Viewer's "blur").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Background {
    #[default]
    Flat,
    Environment,
    Blurred,
}

impl Background {
    pub const ALL: [Background; 3] = [
        Background::Flat,
        Background::Environment,
        Background::Blurred,
    ];

    /// Its name on the command line and in the panel.
    pub fn name(self) -> &'static str {
        match self {
            Background::Flat => "flat",
            Background::Environment => "environment",
            Background::Blurred => "blurred",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// Why an environment's image was not read: the file and the problem.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", file.display())]
pub struct PanoramaError {
    pub file: std::path::PathBuf,
    pub problem: PanoramaProblem,
}

/// What is wrong with an environment's image.
#[derive(Debug, thiserror::Error)]
pub enum PanoramaProblem {
    #[error("an environment is a Radiance .hdr or OpenEXR .exr image")]
    NotHdrOrExr,
    #[error("cannot open the environment: {0}")]
    Open(crate::files::FileError),
    #[error("cannot decode the environment: {0}")]
    Decode(image::ImageError),
    #[error(
        "the environment is {width}x{height} texels, more than the {most} ({most_said}) an environment may have: scale it down (the viewer keeps at most {MAX_WIDTH} texels of its width)"
    )]
    TooBig {
        width: u32,
        height: u32,
        most: u64,
        most_said: &'static str,
    },
    #[error("the environment is {width}x{height}; it needs at least 2x1 texels")]
    TooSmall { width: u32, height: u32 },
}

impl EnvironmentImage {
    /// `width` x `height` texels of `radiance(direction)`, each read at its centre.
    pub fn from_fn(width: u32, height: u32, radiance: impl Fn(Vec3) -> Vec3) -> Self {
        let texels = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| radiance(texel_direction(x, y, width, height)).to_array())
            .collect();
        Self {
            width,
            height,
            texels,
        }
    }

    /// Reads a Radiance `.hdr` or OpenEXR `.exr` file (by its extension), a regular file of at
    /// most 1 GiB: at most 16,384 texels a side and `MAX_TEXELS` in all; NaN read as 0,
    /// infinities and overflows clamped to half-float's largest; halved until at most
    /// `MAX_WIDTH` wide. Errors name the file.
    pub fn load(path: &Path) -> Result<Self, PanoramaError> {
        let fail = |problem| PanoramaError {
            file: path.to_path_buf(),
            problem,
        };
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let format = match extension.as_deref() {
            Some("hdr") => image::ImageFormat::Hdr,
            Some("exr") => image::ImageFormat::OpenExr,
            _ => return Err(fail(PanoramaProblem::NotHdrOrExr)),
        };
        // A FIFO or a device is refused by its kind, before it is opened (opening a FIFO
        // blocks until a writer comes).
        let file = crate::files::open_regular_capped(path, MAX_FILE_BYTES)
            .map_err(|e| fail(PanoramaProblem::Open(e)))?;
        let mut reader = image::ImageReader::with_format(std::io::BufReader::new(file), format);
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(MAX_DECODE_BYTES);
        reader.limits(limits);
        let cannot = |e: image::ImageError| fail(PanoramaProblem::Decode(e));
        let decoder = reader.into_decoder().map_err(cannot)?;
        let (width, height) = image::ImageDecoder::dimensions(&decoder);
        let (most, most_said) = match format {
            image::ImageFormat::OpenExr => (MAX_EXR_TEXELS, "8192x4096, for OpenEXR"),
            _ => (MAX_TEXELS, "16384x4096"),
        };
        if u64::from(width) * u64::from(height) > most {
            return Err(fail(PanoramaProblem::TooBig {
                width,
                height,
                most,
                most_said,
            }));
        }
        let decoded = image::DynamicImage::from_decoder(decoder)
            .map_err(cannot)?
            .into_rgb32f();
        if width < 2 || height < 1 {
            return Err(fail(PanoramaProblem::TooSmall { width, height }));
        }
        let clean = |v: f32| {
            if v.is_nan() {
                0.0
            } else {
                v.clamp(0.0, MAX_RADIANCE)
            }
        };
        let at = |x: u32, y: u32| {
            let p = decoded.get_pixel(x, y);
            Vec3::new(clean(p[0]), clean(p[1]), clean(p[2]))
        };
        // Halved straight from the decoded texels when too wide: never a second full copy.
        let mut image = if width > MAX_WIDTH {
            Self::halving(width, height, at)
        } else {
            let texels = (0..height)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .map(|(x, y)| at(x, y).to_array())
                .collect();
            Self {
                width,
                height,
                texels,
            }
        };
        drop(decoded);
        while image.width > MAX_WIDTH {
            image = image.halved();
        }
        Ok(image)
    }

    /// The image at half the size (rounded down, at least 1), each texel the mean of the 2x2
    /// (or fewer, at an odd edge) above it.
    pub fn halved(&self) -> Self {
        Self::halving(self.width, self.height, |x, y| {
            Vec3::from(self.texels[(y * self.width + x) as usize])
        })
    }

    /// The `width` x `height` image whose texel (x, y) is `texel(x, y)`, halved.
    fn halving(width: u32, height: u32, texel: impl Fn(u32, u32) -> Vec3) -> Self {
        let (w, h) = ((width / 2).max(1), (height / 2).max(1));
        let at = |x: u32, y: u32| texel(x.min(width - 1), y.min(height - 1));
        let texels = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (sx, sy) = (2 * x, 2 * y);
                ((at(sx, sy) + at(sx + 1, sy) + at(sx, sy + 1) + at(sx + 1, sy + 1)) / 4.0)
                    .to_array()
            })
            .collect();
        Self {
            width: w,
            height: h,
            texels,
        }
    }

    /// Its mip chain: itself, then each half of the last down to one texel high.
    pub fn chain(&self) -> Vec<Self> {
        let mut chain = vec![self.clone()];
        while chain.last().is_some_and(|l| l.width > 1 || l.height > 1) {
            let next = chain.last().map(Self::halved);
            chain.extend(next);
        }
        chain
    }

    /// Irradiance / π at a surface facing `n` (unit): each texel's radiance times its solid
    /// angle times the cosine, summed over the image (the CPU's reference for the GPU's map).
    pub fn irradiance(&self, n: Vec3) -> Vec3 {
        let mut sum = Vec3::ZERO;
        for y in 0..self.height {
            let theta = PI * (y as f32 + 0.5) / self.height as f32;
            let solid_angle =
                (2.0 * PI / self.width as f32) * (PI / self.height as f32) * theta.sin();
            for x in 0..self.width {
                let cosine = n.dot(texel_direction(x, y, self.width, self.height));
                if cosine > 0.0 {
                    let radiance = Vec3::from(self.texels[(y * self.width + x) as usize]);
                    sum += radiance * cosine * solid_angle;
                }
            }
        }
        sum / PI
    }
}

/// The direction through the centre of texel (x, y) of a `width` x `height` equirectangular
/// image.
pub fn texel_direction(x: u32, y: u32, width: u32, height: u32) -> Vec3 {
    let phi = 2.0 * PI * ((x as f32 + 0.5) / width as f32 - 0.5);
    let theta = PI * (y as f32 + 0.5) / height as f32;
    Vec3::new(
        theta.sin() * phi.cos(),
        theta.cos(),
        theta.sin() * phi.sin(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_texel_s_direction_maps_back_to_it() {
        let (w, h) = (64, 32);
        for (x, y) in [(0, 0), (17, 5), (32, 16), (63, 31)] {
            let d = texel_direction(x, y, w, h);
            let u = 0.5 + d.z.atan2(d.x) / (2.0 * PI);
            let v = d.y.clamp(-1.0, 1.0).acos() / PI;
            assert!(
                (u * w as f32 - (x as f32 + 0.5)).abs() < 1e-3,
                "{x} {y}: u {u}"
            );
            assert!(
                (v * h as f32 - (y as f32 + 0.5)).abs() < 1e-3,
                "{x} {y}: v {v}"
            );
        }
    }

    #[test]
    fn irradiance_of_a_uniform_and_of_a_half_sky() {
        // A uniform radiance L gives irradiance π L (so L after dividing by π); a sky of 1 over
        // the upper hemisphere and 0 below gives (1 + n.y) / 2.
        let uniform = EnvironmentImage::from_fn(128, 64, |_| Vec3::splat(2.0));
        let half = EnvironmentImage::from_fn(256, 128, |d| Vec3::splat(f32::from(d.y > 0.0)));
        for n in [
            Vec3::Y,
            Vec3::X,
            Vec3::new(0.3, -0.5, 0.8).normalize(),
            -Vec3::Y,
        ] {
            let e = uniform.irradiance(n);
            assert!(
                (e - Vec3::splat(2.0)).abs().max_element() < 0.01,
                "{n}: {e}"
            );
            let e = half.irradiance(n).x;
            assert!((e - (1.0 + n.y) / 2.0).abs() < 0.01, "{n}: {e}");
        }
    }

    #[test]
    fn halving_averages_and_the_chain_ends_at_one_texel() {
        let image = EnvironmentImage {
            width: 4,
            height: 2,
            texels: (0..8).map(|i| [i as f32, 0.0, 1.0]).collect(),
        };
        let half = image.halved();
        assert_eq!((half.width, half.height), (2, 1));
        assert_eq!(half.texels, vec![[2.5, 0.0, 1.0], [4.5, 0.0, 1.0]]);
        let chain = image.chain();
        let sizes: Vec<_> = chain.iter().map(|l| (l.width, l.height)).collect();
        assert_eq!(sizes, vec![(4, 2), (2, 1), (1, 1)]);
        assert_eq!(chain[2].texels, vec![[3.5, 0.0, 1.0]]);
    }
}
