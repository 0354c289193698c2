package io.riverbed.admin;

import io.riverbed.format.options.SecretOptions;
import io.riverbed.format.table.Table;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;

/** {@code show-config}: the table's configuration, {@code .hoodie/hoodie.properties}. */
@Command(name = "show-config",
    description = {"The table's configuration (.hoodie/hoodie.properties, or its backup when the main file is "
        + "missing) as key and value, sorted by key; --json prints one object."})
final class ShowConfigCommand extends TableCommand {

  record Entry(String key, String value) {}

  @Override
  void run(Table table, Output out) {
    Map<String, String> properties = new TreeMap<>(SecretOptions.redact(table.config().properties()));
    if (out.isJson()) {
      out.json(properties);
      return;
    }
    List<Entry> rows = properties.entrySet().stream().map(e -> new Entry(e.getKey(), e.getValue())).toList();
    out.table(TextTable.of(rows).column("KEY", Entry::key).column("VALUE", Entry::value));
  }
}
