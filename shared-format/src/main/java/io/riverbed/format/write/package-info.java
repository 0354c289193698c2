/**
 * Engine-neutral write primitives for Hudi table version 6 (byte-compatible with Hudi 0.15).
 *
 * <ul>
 *   <li>Input: {@link io.riverbed.format.write.WriteRecord} (upsert or delete with ordering value),
 *       built from user records by {@link io.riverbed.format.write.RecordKeyer} and deduplicated by
 *       {@link io.riverbed.format.write.BatchPrecombiner}.
 *   <li>An instant: {@link io.riverbed.format.write.WriteTransaction} (requested → inflight → commit),
 *       {@link io.riverbed.format.write.CommitLookup} to find commits by their extra metadata.
 *   <li>One engine task's writes: {@link io.riverbed.format.write.TableWriter} (routed rows buffered
 *       per file group in bounded memory, written with the handle each group needs, write stats
 *       returned by {@code prepareCommit}); new keys placed by
 *       {@link io.riverbed.format.write.FileGroupPacker} or hashed by
 *       {@link io.riverbed.format.write.BucketIndex}.
 *   <li>Files of one task ({@link io.riverbed.format.write.WriteTaskContext}):
 *       {@link io.riverbed.format.write.AppendHandle} (MOR log append),
 *       {@link io.riverbed.format.write.CreateHandle} (new base file),
 *       {@link io.riverbed.format.write.MergeHandle} (COW merge).
 *   <li>Committing what tasks wrote: {@link io.riverbed.format.write.commit.TableCommitter} in
 *       {@code write.commit} (idempotent commits, conflict check, post-commit actions).
 *   <li>Undo: {@link io.riverbed.format.write.Rollback}, including
 *       {@link io.riverbed.format.write.Rollback#rollbackFailedWrites}.
 * </ul>
 */
package io.riverbed.format.write;
