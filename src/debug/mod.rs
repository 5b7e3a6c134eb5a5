//! Skinning-debug tools over a posed character, CPU only: the `check` lint, exports (palettes,
//! posed OBJ and GLB), the debug colourings, picking, and the `inspect` report.

pub mod check;
pub mod colors;
pub mod compression;
pub mod diff;
pub mod export;
pub mod fix;
pub mod golden;
pub mod inspect;
pub mod morph_peak;
pub mod picking;
pub mod readout;
