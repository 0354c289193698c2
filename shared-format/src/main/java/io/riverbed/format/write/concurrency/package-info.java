/**
 * Several writers on one table (Hudi's {@code hoodie.write.concurrency.mode=optimistic_concurrency_control}):
 * the options ({@link io.riverbed.format.write.concurrency.ConcurrencyOptions}), the table lock a
 * commit's conflict check and commit point run under ({@link io.riverbed.format.write.concurrency.TableLock},
 * Hudi's file-system lock in {@link io.riverbed.format.write.concurrency.FileSystemTableLock}), and the
 * heartbeats of pending instants that tell a live writer's instant from a failed one
 * ({@link io.riverbed.format.write.concurrency.InstantHeartbeats}).
 */
package io.riverbed.format.write.concurrency;
