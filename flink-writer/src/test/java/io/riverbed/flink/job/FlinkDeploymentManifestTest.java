package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Flink Kubernetes Operator manifests of {@code deploy/k8s} are valid FlinkDeployments of the
 * operator's real CRD (release 1.15.0, in test resources), run the job with flags its parser
 * accepts, set only real Flink 1.20 options and Hadoop keys, and mount the files the job reads;
 * and a deliberately broken copy is reported mistake by mistake.
 */
class FlinkDeploymentManifestTest {
  static final Path K8S = Path.of("..", "deploy", "k8s");
  static FlinkDeploymentCheck check;

  @BeforeAll
  static void loadCrd() throws IOException {
    try (InputStream in = FlinkDeploymentManifestTest.class.getResourceAsStream("/k8s/flinkdeployments.flink.apache.org-v1.yml")) {
      check = new FlinkDeploymentCheck(FlinkDeploymentCheck.yaml(in), FlinkConfigKeys.scan(), HadoopConfigKeys.load());
    }
  }

  static List<JsonNode> documents(Path... files) {
    List<JsonNode> docs = new ArrayList<>();
    for (Path f : files) {
      docs.addAll(FlinkDeploymentCheck.documents(f));
    }
    return docs;
  }

  static Map<String, JsonNode> configMaps(List<JsonNode> docs) {
    Map<String, JsonNode> maps = new HashMap<>();
    docs.stream().filter(d -> d.path("kind").asText().equals("ConfigMap"))
        .forEach(d -> maps.put(d.path("metadata").path("name").asText(), d));
    return maps;
  }

  static List<JsonNode> deployments(List<JsonNode> docs) {
    return docs.stream().filter(d -> d.path("kind").asText().equals("FlinkDeployment")).toList();
  }

  @Test
  void everyManifestIsAValidFlinkDeploymentThatRunsTheJob() throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(K8S)) {
      files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    List<JsonNode> docs = documents(files.toArray(Path[]::new));
    List<JsonNode> deployments = deployments(docs);
    assertThat(deployments).extracting(d -> d.path("metadata").path("name").asText())
        .containsExactlyInAnyOrder("riverbed-trips-hdfs", "riverbed-trips-s3a");
    Map<String, JsonNode> maps = configMaps(docs);
    for (JsonNode d : deployments) {
      assertThat(check.problems(d, maps)).as(d.path("metadata").path("name").asText()).isEmpty();
    }
    Map<String, String> tables = new HashMap<>();
    deployments.forEach(d -> tables.put(d.path("metadata").path("name").asText(), argAfter(d, "--table-path")));
    assertThat(tables).containsEntry("riverbed-trips-s3a", "s3a://lake/warehouse/trips")
        .hasEntrySatisfying("riverbed-trips-hdfs", p -> assertThat(p).startsWith("hdfs://"));
  }

  @Test
  void theImageHoldsTheJarTheManifestsRun() {
    String script = FlinkDeploymentCheck.read(K8S.resolve("image-context.sh"));
    String dockerfile = FlinkDeploymentCheck.read(K8S.resolve("Dockerfile"));
    assertThat(script).contains("$out/usrlib/riverbed-flink-writer-job.jar");
    assertThat(dockerfile).contains("FROM flink:1.20.3-", "COPY usrlib/ /opt/flink/usrlib/", "COPY lib/ /opt/flink/lib/");
    for (JsonNode d : deployments(documents(K8S.resolve("riverbed-write-s3a.yaml"), K8S.resolve("riverbed-write-hdfs.yaml")))) {
      assertThat(d.path("spec").path("job").path("jarURI").asText()).isEqualTo("local:///opt/flink/usrlib/riverbed-flink-writer-job.jar");
    }
  }

  @Test
  void aBrokenManifestIsReportedMistakeByMistake() throws IOException {
    Path broken = Files.createTempFile("broken", ".yaml");
    try (InputStream in = getClass().getResourceAsStream("/k8s/broken-riverbed-write.yaml")) {
      Files.write(broken, in.readAllBytes());
    }
    List<JsonNode> docs = documents(broken, K8S.resolve("trips-schema.yaml"));
    Map<String, JsonNode> maps = configMaps(docs);
    List<JsonNode> deployments = deployments(docs);

    List<String> first = check.problems(deployments.get(0), maps);
    assertThat(String.join("\n", first)).contains(
        "$.spec.flinkVersion: does not have a value in the enumeration",
        "$.spec.job.jarUri: is not defined in the schema",
        "$.spec.taskManager.replica: is not defined in the schema",
        "$.spec.job.parallelism: string found, integer expected",
        "'execution.checkpointing.intervall' is not a Flink 1.20 configuration option",
        "'state.checkpoints.dir' is deprecated in Flink 1.20; use 'execution.checkpointing.dir'",
        "'taskmanager.numberOfTaskSlots': 'two' is not a valid value",
        "flinkVersion must be v1_20",
        "job.args: unknown flag --checkpoint-intervall");

    List<String> second = check.problems(deployments.get(1), maps);
    assertThat(String.join("\n", second)).contains(
        "$.spec.podTemplate.spec.containers[0].imagePullPolicyy: is not defined in the schema",
        "execution.checkpointing.dir differs from the job's --checkpoint-dir s3a://lake/checkpoints",
        "--schema /opt/riverbed/schema/trips.avsc is not a file of a ConfigMap the pod template mounts",
        "core-site.xml: 'fs.s3a.path.style.acess' is not a Hadoop 3.3 (core, hdfs or s3a) option",
        "s3a:// checkpoints need fs.allowed-fallback-filesystems: s3a");
  }

  private static String argAfter(JsonNode deployment, String flag) {
    List<String> args = new ArrayList<>();
    deployment.path("spec").path("job").path("args").forEach(a -> args.add(a.asText()));
    return args.get(args.indexOf(flag) + 1);
  }
}
