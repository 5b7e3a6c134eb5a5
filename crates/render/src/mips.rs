//! A texture's mip chain, made on the CPU at load: each level a 2x2 box filter of the one
//! above, averaged in linear light for sRGB images (averaging sRGB values darkens a minified
//! texture), alpha averaged as it is. WebGL's `generateMipmap` (which three.js calls) do the same on
//! the GPU; here it is done once per image, before upload.

/// sRGB byte to linear light, 16-bit fixed point (0..=65535).
fn to_linear_table() -> [u16; 256] {
    std::array::from_fn(|i| {
        let c = i as f64 / 255.0;
        let l = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        };
        (l * 65535.0).round() as u16
    })
}

/// Linear light (16-bit fixed point) back to an sRGB byte.
fn to_srgb_table() -> Vec<u8> {
    (0..=65535u32)
        .map(|i| {
            let l = f64::from(i) / 65535.0;
            let c = if l <= 0.0031308 {
                l * 12.92
            } else {
                1.055 * l.powf(1.0 / 2.4) - 0.055
            };
            (c * 255.0).round().clamp(0.0, 255.0) as u8
        })
        .collect()
}

/// The levels below `rgba` (`w` x `h` RGBA8), each half the size of the last (rounded down,
/// at least 1), down to 1x1: (width, height, pixels).
pub fn mip_chain(w: u32, h: u32, rgba: &[u8], srgb: bool) -> Vec<(u32, u32, Vec<u8>)> {
    static TABLES: std::sync::OnceLock<([u16; 256], Vec<u8>)> = std::sync::OnceLock::new();
    let (to_linear, to_srgb) = TABLES.get_or_init(|| (to_linear_table(), to_srgb_table()));
    let mut levels: Vec<(u32, u32, Vec<u8>)> = Vec::new();
    let (mut sw, mut sh) = (w, h);
    while sw > 1 || sh > 1 {
        let source: &[u8] = levels.last().map_or(rgba, |l| &l.2);
        let (dw, dh) = ((sw / 2).max(1), (sh / 2).max(1));
        let mut level = vec![0u8; (dw * dh * 4) as usize];
        for y in 0..dh {
            for x in 0..dw {
                let (x0, y0) = (2 * x, 2 * y);
                let (x1, y1) = ((x0 + 1).min(sw - 1), (y0 + 1).min(sh - 1));
                let at = |x: u32, y: u32| ((y * sw + x) * 4) as usize;
                let corners = [at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1)];
                let out = ((y * dw + x) * 4) as usize;
                for c in 0..4 {
                    let linear = srgb && c < 3;
                    let sum: u32 = corners
                        .iter()
                        .map(|&i| {
                            let v = source[i + c];
                            if linear {
                                u32::from(to_linear[usize::from(v)])
                            } else {
                                u32::from(v)
                            }
                        })
                        .sum();
                    level[out + c] = if linear {
                        to_srgb[((sum + 2) / 4) as usize]
                    } else {
                        ((sum + 2) / 4) as u8
                    };
                }
            }
        }
        levels.push((dw, dh, level));
        (sw, sh) = (dw, dh);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_levels_average_in_linear_light_and_linear_ones_as_they_are() {
        // Black and white: half the light is sRGB 188 (0.5 linear), not 128.
        let checker = [
            0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255,
        ];
        let srgb = mip_chain(2, 2, &checker, true);
        assert_eq!(srgb.len(), 1);
        assert_eq!(srgb[0].2, vec![188, 188, 188, 255]);
        let linear = mip_chain(2, 2, &checker, false);
        assert_eq!(linear[0].2, vec![128, 128, 128, 255]);
    }

    #[test]
    fn a_chain_halves_to_one_pixel_rounding_down() {
        assert!(mip_chain(1, 1, &[9; 4], true).is_empty());
        let wide = mip_chain(1024, 512, &vec![9; 1024 * 512 * 4], true);
        assert_eq!(wide.len(), 10);
        assert_eq!((wide[8].0, wide[8].1, wide[9].0, wide[9].1), (2, 1, 1, 1));
        let rgba = vec![200u8; 5 * 3 * 4];
        let chain = mip_chain(5, 3, &rgba, true);
        let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(sizes, vec![(2, 1), (1, 1)]);
        // A flat colour stays itself at every level (the round trip through linear is exact
        // to the byte).
        assert!(chain.iter().all(|l| l.2.iter().all(|&v| v == 200)));
    }
}
