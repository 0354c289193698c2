package io.riverbed.flink.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.riverbed.flink.source.AvroRowTypes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.flink.util.TimeUtils;

/**
 * Checks FlinkDeployment manifests the way the Kubernetes API server and the job would: against
 * the operator's CRD schema (v1beta1's openAPIV3Schema, made strict as {@code kubectl apply}'s
 * server-side field validation is: a field the schema does not declare is an error unless the
 * schema preserves unknown fields), then {@code job.args} with the job's own parser, the
 * {@code flinkConfiguration} keys against Flink's options, and the files the job reads against the
 * ConfigMaps the pod template mounts. Returns problems instead of throwing, so a test can assert
 * what a broken manifest reports.
 */
final class FlinkDeploymentCheck {
  static final YAMLMapper YAML = new YAMLMapper();

  private final JsonSchema schema;
  private final FlinkConfigKeys flinkKeys;
  private final HadoopConfigKeys hadoopKeys;

  FlinkDeploymentCheck(JsonNode crd, FlinkConfigKeys flinkKeys, HadoopConfigKeys hadoopKeys) {
    JsonNode v1beta1 = null;
    for (JsonNode version : crd.path("spec").path("versions")) {
      if (version.path("name").asText().equals("v1beta1")) {
        v1beta1 = version;
      }
    }
    if (v1beta1 == null) {
      throw new IllegalArgumentException("the CRD has no version v1beta1");
    }
    ObjectNode openApi = v1beta1.path("schema").path("openAPIV3Schema").deepCopy();
    // The API server declares these for every resource; CRD schemas may leave them out.
    ObjectNode root = (ObjectNode) openApi.path("properties");
    root.putIfAbsent("apiVersion", YAML.createObjectNode().put("type", "string"));
    root.putIfAbsent("kind", YAML.createObjectNode().put("type", "string"));
    root.putIfAbsent("metadata", YAML.createObjectNode().put("type", "object"));
    strict(openApi);
    this.schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(openApi);
    this.flinkKeys = flinkKeys;
    this.hadoopKeys = hadoopKeys;
  }

  /** All YAML documents of a file. */
  static List<JsonNode> documents(Path file) {
    try {
      return YAML.readValues(YAML.getFactory().createParser(file.toFile()), JsonNode.class).readAll();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  static JsonNode yaml(InputStream in) throws IOException {
    return YAML.readTree(in);
  }

  /**
   * What is wrong with one FlinkDeployment; {@code configMaps} are the ConfigMaps (by name) the
   * manifest may mount.
   */
  List<String> problems(JsonNode deployment, Map<String, JsonNode> configMaps) {
    List<String> problems = new ArrayList<>();
    String name = deployment.path("metadata").path("name").asText("(no name)");
    if (!deployment.path("apiVersion").asText().equals("flink.apache.org/v1beta1")
        || !deployment.path("kind").asText().equals("FlinkDeployment")) {
      problems.add(name + ": not a flink.apache.org/v1beta1 FlinkDeployment");
    }
    for (ValidationMessage m : schema.validate(deployment)) {
      problems.add(name + ": CRD schema: " + m.getMessage());
    }
    JsonNode spec = deployment.path("spec");
    if (!spec.path("flinkVersion").asText().equals("v1_20")) {
      problems.add(name + ": flinkVersion must be v1_20 (Riverbed is built for Flink 1.20)");
    }
    JsonNode conf = spec.path("flinkConfiguration");
    conf.fields().forEachRemaining(e -> flinkKeys.problem(e.getKey(), e.getValue().asText())
        .ifPresent(p -> problems.add(name + ": flinkConfiguration: " + p)));

    JsonNode job = spec.path("job");
    if (!job.path("entryClass").asText().equals(WriteJob.class.getName())) {
      problems.add(name + ": job.entryClass must be " + WriteJob.class.getName());
    }
    List<String> args = new ArrayList<>();
    job.path("args").forEach(a -> args.add(a.asText()));
    WriteJobConfig config;
    try {
      config = WriteJobArguments.parse(args.toArray(String[]::new));
    } catch (UsageException e) {
      problems.add(name + ": job.args: " + e.getMessage());
      return problems;
    }
    String dir = config.checkpoints().dir().orElseThrow();
    if (conf.has("execution.checkpointing.dir") && !conf.path("execution.checkpointing.dir").asText().equals(dir)) {
      problems.add(name + ": execution.checkpointing.dir differs from the job's --checkpoint-dir " + dir
          + " (the job's flag wins; the operator reads the configuration)");
    }
    if (conf.has("execution.checkpointing.interval")
        && !TimeUtils.parseDuration(conf.path("execution.checkpointing.interval").asText()).equals(config.checkpoints().interval())) {
      problems.add(name + ": execution.checkpointing.interval differs from the job's --checkpoint-interval");
    }
    Map<String, String> mounts = mountedConfigMaps(spec);
    config.input().schemaFile().ifPresent(file -> mountedFile(file, mounts, configMaps).ifPresentOrElse(
        avsc -> {
          try {
            WriteJob.checkFields(AvroRowTypes.toRowType(new Schema.Parser().parse(avsc)), config.table());
          } catch (RuntimeException e) {
            problems.add(name + ": --schema " + file + ": " + e.getMessage());
          }
        },
        () -> problems.add(name + ": --schema " + file + " is not a file of a ConfigMap the pod template mounts")));
    problems.addAll(hadoopProblems(name, spec, mounts, configMaps, config));
    return problems;
  }

  /** HADOOP_CONF_DIR names a mounted ConfigMap whose *-site.xml keys are Hadoop's, and s3a checkpoints are allowed. */
  private List<String> hadoopProblems(String name, JsonNode spec, Map<String, String> mounts, Map<String, JsonNode> configMaps,
      WriteJobConfig config) {
    List<String> problems = new ArrayList<>();
    Optional<String> confDir = env(spec, "HADOOP_CONF_DIR");
    if (confDir.isEmpty()) {
      problems.add(name + ": no HADOOP_CONF_DIR in the pod template (where Riverbed and Flink find core-site.xml)");
      return problems;
    }
    JsonNode map = configMaps.get(mounts.get(confDir.get()));
    if (map == null || !map.path("data").has("core-site.xml")) {
      problems.add(name + ": HADOOP_CONF_DIR " + confDir.get() + " is not a mounted ConfigMap with a core-site.xml");
      return problems;
    }
    map.path("data").fields().forEachRemaining(e -> {
      for (String key : HadoopConfigKeys.propertyNames(e.getValue().asText())) {
        if (!hadoopKeys.isKnown(key)) {
          problems.add(name + ": " + e.getKey() + ": '" + key + "' is not a Hadoop 3.3 (core, hdfs or s3a) option");
        }
      }
    });
    boolean s3a = config.table().path().startsWith("s3a://") || config.checkpoints().dir().orElseThrow().startsWith("s3a://");
    if (s3a && !spec.path("flinkConfiguration").path("fs.allowed-fallback-filesystems").asText().contains("s3a")) {
      problems.add(name + ": s3a:// checkpoints need fs.allowed-fallback-filesystems: s3a");
    }
    return problems;
  }

  /** mountPath -> ConfigMap name, for the main container of the pod template. */
  private static Map<String, String> mountedConfigMaps(JsonNode spec) {
    Map<String, String> volumes = new java.util.HashMap<>();
    JsonNode pod = spec.path("podTemplate").path("spec");
    pod.path("volumes").forEach(v -> {
      if (v.path("configMap").has("name")) {
        volumes.put(v.path("name").asText(), v.path("configMap").path("name").asText());
      }
    });
    Map<String, String> mounts = new java.util.HashMap<>();
    mainContainer(spec).path("volumeMounts").forEach(m -> {
      String map = volumes.get(m.path("name").asText());
      if (map != null) {
        mounts.put(m.path("mountPath").asText(), map);
      }
    });
    return mounts;
  }

  private static Optional<String> mountedFile(String file, Map<String, String> mounts, Map<String, JsonNode> configMaps) {
    Path p = Path.of(file);
    String map = mounts.get(String.valueOf(p.getParent()));
    if (map == null || !configMaps.containsKey(map)) {
      return Optional.empty();
    }
    JsonNode content = configMaps.get(map).path("data").path(p.getFileName().toString());
    return content.isTextual() ? Optional.of(content.asText()) : Optional.empty();
  }

  private static JsonNode mainContainer(JsonNode spec) {
    for (JsonNode c : spec.path("podTemplate").path("spec").path("containers")) {
      if (c.path("name").asText().equals("flink-main-container")) {
        return c;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static Optional<String> env(JsonNode spec, String variable) {
    for (JsonNode e : mainContainer(spec).path("env")) {
      if (e.path("name").asText().equals(variable) && e.has("value")) {
        return Optional.of(e.path("value").asText());
      }
    }
    return Optional.empty();
  }

  /**
   * Makes a Kubernetes structural schema strict and plain JSON Schema: every object schema that
   * declares properties and does not preserve unknown fields gets {@code additionalProperties:
   * false}; the {@code x-kubernetes-*} extensions are dropped after use.
   */
  static void strict(JsonNode schemaNode) {
    if (!(schemaNode instanceof ObjectNode s)) {
      return;
    }
    boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (s.has("properties") && !preserve && !s.has("additionalProperties")) {
      s.put("additionalProperties", false);
    }
    for (Iterator<String> names = s.fieldNames(); names.hasNext(); ) {
      if (names.next().startsWith("x-kubernetes-")) {
        names.remove();
      }
    }
    s.path("properties").forEach(FlinkDeploymentCheck::strict);
    JsonNode items = s.path("items");
    if (items instanceof ArrayNode array) {
      array.forEach(FlinkDeploymentCheck::strict);
    } else {
      strict(items);
    }
    strict(s.path("additionalProperties"));
    for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
      s.path(combinator).forEach(FlinkDeploymentCheck::strict);
    }
    strict(s.path("not"));
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
