package io.riverbed.flink.catalog;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CommonCatalogOptions;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * {@code CREATE CATALOG c WITH ('type' = 'hudi', 'catalog.path' = '...')}: Hudi's Flink catalog
 * options; the {@code dfs} mode (tables as folders under the catalog path) is the one Riverbed has.
 */
public final class HudiCatalogFactory implements CatalogFactory {
  public static final String IDENTIFIER = "hudi";

  public static final ConfigOption<String> CATALOG_PATH = ConfigOptions.key("catalog.path")
      .stringType().noDefaultValue()
      .withDescription("Root folder of the catalog: a folder per database, and in it a folder per table (its base path).");
  public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
      .stringType().defaultValue("default")
      .withDescription("The database the catalog starts in; created if missing.");
  public static final ConfigOption<String> MODE = ConfigOptions.key("mode")
      .stringType().defaultValue("dfs")
      .withDescription("Where the catalog keeps tables: 'dfs' (folders under catalog.path). Hudi's 'hms' mode "
          + "(a Hive metastore) is not available in Riverbed yet.");
  public static final ConfigOption<String> HIVE_CONF_DIR = ConfigOptions.key("hive.conf.dir")
      .stringType().noDefaultValue()
      .withDescription("Hudi's 'hms' mode only; refused with mode 'dfs'.");

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
    return Set.of(CATALOG_PATH, DEFAULT_DATABASE, MODE, HIVE_CONF_DIR);
  }

  @Override
  public Catalog createCatalog(Context context) {
    FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
    helper.validateExcept("hadoop.");
    var conf = helper.getOptions();
    String mode = conf.get(MODE);
    if (!mode.equalsIgnoreCase("dfs")) {
      throw new ValidationException("Catalog " + context.getName() + ": mode '" + mode + "' is not available; Riverbed's "
          + "hudi catalog has mode 'dfs' only (tables under 'catalog.path'). For Hive, create the tables in 'dfs' mode "
          + "and sync them with 'hive_sync.enabled' = 'true'");
    }
    if (conf.getOptional(HIVE_CONF_DIR).isPresent()) {
      throw new ValidationException("Catalog " + context.getName() + ": 'hive.conf.dir' applies to mode 'hms', which "
          + "Riverbed's hudi catalog does not have");
    }
    String path = conf.getOptional(CATALOG_PATH).filter(p -> !p.isBlank()).orElseThrow(() -> new ValidationException(
        "Catalog " + context.getName() + ": option 'catalog.path' (the catalog's root folder) is required"));
    Map<String, String> hadoop = new HashMap<>();
    context.getOptions().forEach((k, v) -> {
      if (k.startsWith("hadoop.")) {
        hadoop.put(k, v);
      }
    });
    return new HudiDfsCatalog(context.getName(), conf.get(DEFAULT_DATABASE), path, hadoop);
  }
}
