// Package snapshot reads TAU's XML profiles into a drg.Trial: the merged
// profile TAU_PROFILE_FORMAT=merged writes (tauprofile.xml, every rank in
// one file, optionally with the derived statistics of TAU_PRECOMPUTE) and
// the per-thread snapshot files TAU_PROFILE_FORMAT=snapshot or
// TAU_PROFILE_SNAPSHOT write (snapshot.N.C.T, one <profile_xml> document per
// snapshot). Either may be gzip-compressed.
//
// Such a file is a concatenation of <profile_xml> documents, in merged
// files separated by NUL bytes, so it is not one XML document. Decode
// streams it through encoding/xml after dropping the NUL bytes and wrapping
// everything in a synthetic root element. Text is decoded as UTF-8
// (escaped with entities or put in CDATA, both work); a byte that is not
// part of valid UTF-8 becomes U+FFFD and a control character XML forbids
// becomes a blank (TAU's Java reader turns every byte ≥ 0x80 into a
// blank). The format is described in formats/snapshot-xml.md.
//
// Semantics follow TAU's Java loader (SnapshotXMLHandler), with the
// differences noted on Decode: <thread> elements define the threads and may
// repeat (their metadata is merged); ids of <definitions thread="*"> hold
// for every thread, other definitions for their thread only, and later
// snapshots define new ids; a name defined under two ids is one event, whose
// last line wins. When a thread has several <profile> snapshots the last one
// is the trial's profile and the earlier ones become Trial.Series.
//
// The derived statistics TAU writes at the end of a merged file are not
// threads; DecodeDerived and Reader.ReadDerived return them as a Derived
// value aligned with the trial, so that they can be compared with
// drg.Trial.Statistics.
package snapshot
