package io.riverbed.admin;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options every subcommand takes: output form, Hadoop settings, and how much to say on failure. */
final class GlobalOptions {
  @Option(names = "--json", description = "Print JSON (one document) instead of aligned tables.")
  boolean json;

  @Option(names = "--conf", paramLabel = "KEY=VALUE",
      description = "A Hadoop setting (repeatable), applied over the core-site.xml and hdfs-site.xml of "
          + "HADOOP_CONF_DIR, e.g. fs.s3a.endpoint=http://host:9000.")
  List<String> conf = new ArrayList<>();

  @Option(names = {"-v", "--verbose"},
      description = "On failure print the stack trace; log Riverbed's lifecycle lines (INFO) to stderr.")
  boolean verbose;
}
