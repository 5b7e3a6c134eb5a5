//! GIF's 256 colours: a palette learnt by NeuQuant (the quantizer the gif crate uses) from one
//! frame or from every frame, and each frame mapped onto it with Floyd-Steinberg error diffusion,
//! so a gradient (the lit skin, the sky) dithers instead of banding.

use color_quant::NeuQuant;

/// Whether each frame of a GIF has its own palette or all share one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GifPalette {
    /// Each frame's own 256 colours (written as it comes; best colour, larger file).
    #[default]
    Frame,
    /// One palette learnt from every frame (no flicker between frames; the frames are held
    /// until the last).
    Global,
}

/// The most pixels NeuQuant learns from (every frame contributes its share).
const TRAINING_PIXELS: usize = 1 << 19;
/// NeuQuant's sampling factor: 1 is the slowest and best, 30 the fastest; 10 is its authors'
/// recommended balance.
const SAMPLE_FACTOR: i32 = 10;

/// A palette of 256 colours and its lookup.
pub struct Palette {
    quant: NeuQuant,
    rgb: Vec<u8>,
}

impl Palette {
    /// Learns a palette from `frames` (RGBA8), a stride of each so at most `TRAINING_PIXELS`
    /// are read in all.
    pub fn learn(frames: &[&[u8]]) -> Self {
        let pixels: usize = frames.iter().map(|f| f.len() / 4).sum();
        let stride = pixels.div_ceil(TRAINING_PIXELS).max(1);
        let mut sample = Vec::with_capacity((pixels / stride + 1) * 4);
        for frame in frames {
            for p in frame.chunks_exact(4).step_by(stride) {
                sample.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        if sample.is_empty() {
            sample.extend_from_slice(&[0, 0, 0, 255]);
        }
        let quant = NeuQuant::new(SAMPLE_FACTOR, 256, &sample);
        let rgb = quant.color_map_rgb();
        Self { quant, rgb }
    }

    /// The palette as RGB triples (256 of them).
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The index of the palette colour nearest `rgb` (NeuQuant's search).
    pub fn nearest(&self, rgb: [u8; 3]) -> usize {
        self.quant.index_of(&[rgb[0], rgb[1], rgb[2], 255])
    }
}

/// `rgba` (width x height) mapped onto `palette` with Floyd-Steinberg error diffusion, row
/// directions alternating (serpentine) so the error does not drift one way: one index a pixel.
pub fn dither_to_palette(palette: &Palette, rgba: &[u8], (w, h): (u32, u32)) -> Vec<u8> {
    let (w, h) = (w as usize, h as usize);
    let mut indices = vec![0u8; w * h];
    // The error carried into this row and the next, per channel, with a pixel of margin on
    // each side.
    let mut this_row = vec![[0f32; 3]; w + 2];
    let mut next_row = vec![[0f32; 3]; w + 2];
    for y in 0..h {
        let forward = y % 2 == 0;
        for step in 0..w {
            let x = if forward { step } else { w - 1 - step };
            let at = y * w + x;
            let src = &rgba[at * 4..at * 4 + 3];
            let carried = this_row[x + 1];
            let wanted: [f32; 3] =
                std::array::from_fn(|c| (f32::from(src[c]) + carried[c]).clamp(0.0, 255.0));
            let index = palette.nearest(wanted.map(|v| v.round() as u8));
            indices[at] = index as u8;
            let got = &palette.rgb[index * 3..index * 3 + 3];
            let error: [f32; 3] = std::array::from_fn(|c| wanted[c] - f32::from(got[c]));
            // Ahead in this row, and behind, below and ahead in the next (7, 3, 5, 1 sixteenths).
            let (ahead, behind) = if forward { (x + 2, x) } else { (x, x + 2) };
            for c in 0..3 {
                this_row[ahead][c] += error[c] * 7.0 / 16.0;
                next_row[behind][c] += error[c] * 3.0 / 16.0;
                next_row[x + 1][c] += error[c] * 5.0 / 16.0;
                next_row[ahead][c] += error[c] / 16.0;
            }
        }
        std::mem::swap(&mut this_row, &mut next_row);
        next_row.iter_mut().for_each(|e| *e = [0.0; 3]);
    }
    indices
}

/// One GIF frame of `rgba` on `palette`, shown for `delay_cs` hundredths of a second; `local`
/// writes the palette with the frame (a palette per frame), else the file's global one is used.
pub fn frame(
    palette: &Palette,
    local: bool,
    rgba: &[u8],
    size: (u32, u32),
    delay_cs: u16,
) -> gif::Frame<'static> {
    let mut frame = gif::Frame {
        width: size.0 as u16,
        height: size.1 as u16,
        buffer: dither_to_palette(palette, rgba, size).into(),
        delay: delay_cs,
        ..Default::default()
    };
    if local {
        frame.palette = Some(palette.rgb().to_vec());
    }
    frame
}
