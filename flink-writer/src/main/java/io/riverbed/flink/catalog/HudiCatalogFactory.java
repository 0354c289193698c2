package io.riverbed.flink.catalog;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CommonCatalogOptions;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * {@code CREATE CATALOG c WITH ('type' = 'hudi', ...)}: Hudi's Flink catalog and its options, in
 * {@code dfs} mode ({@link HudiDfsCatalog}: tables as folders under {@code catalog.path}) or
 * {@code hms} mode ({@link HudiHmsCatalog}: tables registered in a Hive Metastore).
 */
public final class HudiCatalogFactory implements CatalogFactory {
  public static final String IDENTIFIER = "hudi";

  public static final ConfigOption<String> CATALOG_PATH = ConfigOptions.key("catalog.path")
      .stringType().noDefaultValue()
      .withDescription("dfs: root folder of the catalog, a folder per database and in it a folder per table (its base "
          + "path); required. hms: where new databases go (catalog.path/<db>, tables in them), else the metastore's "
          + "warehouse.");
  public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
      .stringType().defaultValue("default")
      .withDescription("The database the catalog starts in; created if missing.");
  public static final ConfigOption<String> MODE = ConfigOptions.key("mode")
      .stringType().defaultValue("dfs")
      .withDescription("Where the catalog keeps tables: 'dfs' (folders under catalog.path) or 'hms' (a Hive Metastore, "
          + "where Spark and Hive see them).");
  public static final ConfigOption<String> HIVE_CONF_DIR = ConfigOptions.key("hive.conf.dir")
      .stringType().noDefaultValue()
      .withDescription("hms: the folder of the hive-site.xml naming the metastore (hive.metastore.uris); else one on the "
          + "classpath, or the option 'hadoop.hive.metastore.uris'.");
  public static final ConfigOption<Boolean> TABLE_EXTERNAL = ConfigOptions.key("table.external")
      .booleanType().defaultValue(false)
      .withDescription("hms: register tables as EXTERNAL (DROP TABLE keeps their data); false: managed tables, whose "
          + "data DROP TABLE deletes.");

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(CATALOG_PATH, DEFAULT_DATABASE, MODE, HIVE_CONF_DIR, TABLE_EXTERNAL);
  }

  @Override
  public Catalog createCatalog(Context context) {
    FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
    helper.validateExcept("hadoop.");
    var conf = helper.getOptions();
    Map<String, String> hadoop = new HashMap<>();
    context.getOptions().forEach((k, v) -> {
      if (k.startsWith("hadoop.")) {
        hadoop.put(k, v);
      }
    });
    Optional<String> path = conf.getOptional(CATALOG_PATH).filter(p -> !p.isBlank());
    String mode = conf.get(MODE).toLowerCase(Locale.ROOT);
    return switch (mode) {
      case "dfs" -> {
        for (ConfigOption<?> hmsOnly : List.of(HIVE_CONF_DIR, TABLE_EXTERNAL)) {
          if (conf.getOptional(hmsOnly).isPresent()) {
            throw new ValidationException("Catalog " + context.getName() + ": '" + hmsOnly.key() + "' applies to mode "
                + "'hms', not 'dfs'");
          }
        }
        yield new HudiDfsCatalog(context.getName(), conf.get(DEFAULT_DATABASE), path.orElseThrow(() -> new ValidationException(
            "Catalog " + context.getName() + ": option 'catalog.path' (the catalog's root folder) is required in mode 'dfs'")),
            hadoop);
      }
      case "hms" -> new HudiHmsCatalog(context.getName(), conf.get(DEFAULT_DATABASE),
          MetastoreSettings.resolve(context.getName(), conf.getOptional(HIVE_CONF_DIR).orElse(null), hadoop),
          path.orElse(null), conf.get(TABLE_EXTERNAL), hadoop);
      default -> throw new ValidationException("Catalog " + context.getName() + ": mode '" + conf.get(MODE)
          + "' is not one of 'dfs', 'hms'");
    };
  }
}
