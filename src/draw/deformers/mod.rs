//! The post-skin deformers' side of the extract: each deformer's asset packed, once, into the
//! words the skin pass reads after a primitive's vertex words, and each frame's values packed
//! into the one slice `Posed` carries. A deformer is a module here (its packing) and a shader
//! in the renderer; the set and the renderer hold every deformer alike.

mod ddm;
mod ml;
mod muscles;

use std::sync::Arc;

use crate::character::Character;
use crate::deform::DdmData;
use crate::pose::CharacterPose;
use crate::render::deformers::{DeformerKind, DeformerWords};

/// A post-skin deformer's asset as the skin pass reads it.
pub trait PackedDeformer: Send + Sync {
    /// Which deformer it is (the shader that reads its words).
    fn kind(&self) -> DeformerKind;
    /// Its words for primitive `primitive` of `character`'s mesh `mesh` (the layout
    /// `DeformerKind`'s variant describes); none when it does not deform that primitive or its
    /// words exceed what the layout can address.
    fn words(&self, character: &Character, mesh: usize, primitive: usize) -> Option<Vec<u32>>;
    /// The count the shader reads beside the words (the ML deformer's components); 0 for one
    /// that has none.
    fn components(&self) -> u32 {
        0
    }
}

/// The deformers a character is drawn with, packed: at most one asset of each kind and the
/// words made from them, shared with the renderer (`Renderer::set_deformers`). A kind is packed
/// again only when its asset is another one (another `Arc`).
#[derive(Default)]
pub struct Deformers {
    held: [Option<Arc<dyn PackedDeformer>>; DeformerKind::COUNT],
    words: Arc<DeformerWords>,
}

impl Deformers {
    /// The words of `assets` (at most one of each kind; a later one replaces an earlier one)
    /// for `character`, packing again the kinds whose asset changed.
    pub fn hold(
        &mut self,
        character: &Character,
        assets: impl IntoIterator<Item = Arc<dyn PackedDeformer>>,
    ) -> &Arc<DeformerWords> {
        let mut wanted: [Option<Arc<dyn PackedDeformer>>; DeformerKind::COUNT] = Default::default();
        for asset in assets {
            let kind = asset.kind() as usize;
            wanted[kind] = Some(asset);
        }
        let shaped = self.words.primitives.len() == character.meshes.len()
            && (self.words.primitives.iter().zip(&character.meshes))
                .all(|(w, m)| w.len() == m.primitives.len());
        // Called every frame: which kinds changed, without allocating.
        let changed: [bool; DeformerKind::COUNT] =
            std::array::from_fn(|k| !shaped || !same(&self.held[k], &wanted[k]));
        if !changed.contains(&true) {
            return &self.words;
        }
        let words = Arc::make_mut(&mut self.words);
        if !shaped {
            words.primitives = (character.meshes.iter())
                .map(|m| vec![Default::default(); m.primitives.len()])
                .collect();
        }
        for k in (0..DeformerKind::COUNT).filter(|&k| changed[k]) {
            let asset = wanted[k].as_deref();
            for (mesh, prims) in words.primitives.iter_mut().enumerate() {
                for (primitive, sections) in prims.iter_mut().enumerate() {
                    sections[k] = asset.and_then(|a| a.words(character, mesh, primitive));
                }
            }
            if DeformerKind::ALL[k] == DeformerKind::Ml {
                words.ml_components = asset.map_or(0, |a| a.components());
            }
        }
        self.held = wanted;
        &self.words
    }
}

/// Whether two optional assets are the same one (or both none).
fn same(a: &Option<Arc<dyn PackedDeformer>>, b: &Option<Arc<dyn PackedDeformer>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::addr_eq(Arc::as_ptr(a), Arc::as_ptr(b)),
        (None, None) => true,
        _ => false,
    }
}

/// The deformer assets `pose` is drawn with (its muscles and its ML corrective), and direct
/// delta mush's Ω when there is one.
pub fn assets_of(
    pose: &CharacterPose,
    ddm: Option<&Arc<DdmData>>,
) -> impl Iterator<Item = Arc<dyn PackedDeformer>> {
    let ddm = ddm.map(|d| d.clone() as Arc<dyn PackedDeformer>);
    let muscles = (pose.muscles.as_ref()).map(|m| m.rig.clone() as Arc<dyn PackedDeformer>);
    let ml = (pose.ml.as_ref()).map(|m| m.model.clone() as Arc<dyn PackedDeformer>);
    [ddm, muscles, ml].into_iter().flatten()
}

/// `pose`'s deformer values this frame into `out`, laid out as
/// `render::deformers::DEFORMER_VALUES` says; empty when it has none. The kinds in `except`
/// are left out (zeros in their place).
pub fn values_into(pose: &CharacterPose, except: &[DeformerKind], out: &mut Vec<[f32; 4]>) {
    out.clear();
    if let Some(frame) = pose.muscles.as_ref()
        && !except.contains(&DeformerKind::Muscles)
    {
        muscles::values_into(&frame.displacement, out);
    }
    if let Some(corrective) = pose.ml.as_ref()
        && !except.contains(&DeformerKind::Ml)
    {
        ml::values_into(&corrective.weights, out);
    }
}

#[cfg(test)]
mod tests;
