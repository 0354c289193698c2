/**
 * Batch writes (a Spark {@code df.write}): one instant per write, made by many tasks that each
 * write whole file groups. The engine-neutral parts live here: the write's options with Hudi's
 * names, what a save mode does to the table, the encoded change that travels between tasks, which
 * task writes a change, one task's write, and the index lookup of existing keys.
 */
package io.riverbed.format.write.batch;
