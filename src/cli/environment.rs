//! The environment options the window and `render` share: an HDR file lighting the character,
//! its rotation and intensity, and what the background shows.

use std::path::PathBuf;
use std::sync::Arc;

use clap::ValueEnum;
use skinscope::environment::{Background, EnvironmentImage, EnvironmentView};

#[derive(clap::Args, Clone, Debug)]
pub struct EnvironmentArgs {
    /// Light with an HDR environment: an equirectangular (latitude-longitude) Radiance .hdr or
    /// OpenEXR .exr image, prefiltered on the GPU at load (default: the generated sky).
    #[arg(long, value_name = "FILE")]
    pub environment: Option<PathBuf>,
    /// Turn the environment about the vertical (+Y) by this many degrees.
    #[arg(long, default_value_t = 0.0, value_parser = parse_degrees, allow_hyphen_values = true)]
    pub environment_rotation: f32,
    /// Scale the environment's light (the generated sky's too), 0 to 100.
    #[arg(long, default_value_t = 1.0, value_parser = parse_intensity, allow_hyphen_values = true)]
    pub environment_intensity: f32,
    /// What the background shows: the flat --background colour, the environment, or the
    /// environment blurred.
    #[arg(long, value_enum, default_value = "flat")]
    pub background_shows: BackgroundArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BackgroundArg {
    Flat,
    Environment,
    Blurred,
}

fn parse_degrees(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v.abs() <= 3600.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of degrees in -3600..=3600")),
    }
}

fn parse_intensity(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not an intensity in 0..=100")),
    }
}

impl EnvironmentArgs {
    pub fn view(&self) -> EnvironmentView {
        EnvironmentView {
            rotation_degrees: self.environment_rotation,
            intensity: self.environment_intensity,
            background: match self.background_shows {
                BackgroundArg::Flat => Background::Flat,
                BackgroundArg::Environment => Background::Environment,
                BackgroundArg::Blurred => Background::Blurred,
            },
        }
    }

    /// The environment's image, read (errors name the file).
    pub fn load(&self) -> Result<Option<Arc<EnvironmentImage>>, String> {
        self.environment
            .as_deref()
            .map(|path| {
                EnvironmentImage::load(path)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .transpose()
    }
}
