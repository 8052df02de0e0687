package hongbao.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.Config;
import hongbao.app.DataDir;
import hongbao.app.cli.HongbaoCommand;
import hongbao.core.withdrawal.WithdrawalTimings;
import hongbao.gateway.HttpGateway;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Holds the three places a person learns the settings from to the one that defines them: what the
 * service reads, what {@code serve --help} prints and the README's table name the same variables.
 */
class SettingsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern NAME = Pattern.compile("HONGBAO_[A-Z0-9_]+");
  private static final Pattern LOGBACK_READ = Pattern.compile("\\$\\{(HONGBAO_[A-Z0-9_]+)");
  private static final Pattern GETENV_READ =
      Pattern.compile("getenv\\(\\s*\"(HONGBAO_[A-Z0-9_]+)\"");

  /** An environment that remembers every variable asked of it. */
  private static final class Recording extends HashMap<String, String> {
    final Set<String> asked = new TreeSet<>();

    Recording(Map<String, String> values) {
      super(values);
    }

    @Override
    public String get(Object key) {
      asked.add((String) key);
      return super.get(key);
    }

    @Override
    public String getOrDefault(Object key, String absent) {
      asked.add((String) key);
      return super.getOrDefault(key, absent);
    }
  }

  @Test
  void everyVariableTheServiceReads_isASetting_andEverySettingIsRead() throws IOException {
    var read = new TreeSet<String>();
    for (Map<String, String> values :
        Stream.of(Map.<String, String>of(), Map.of("HONGBAO_JWT_SECRET", "x".repeat(32)))
            .toList()) {
      var env = new Recording(values);
      Config.from(env);
      DataDir.from(env);
      read.addAll(env.asked);
    }
    read.addAll(matches(LOGBACK_READ, ROOT.resolve("hongbao-app/src/main/resources/logback.xml")));
    for (Path source : mainSources()) {
      read.addAll(matches(GETENV_READ, source));
    }
    assertThat(read).isEqualTo(names());
  }

  @Test
  void everyVariableNamedInTheCode_isASetting() throws IOException {
    var named = new TreeSet<String>();
    for (Path source : mainSources()) {
      Matcher m = NAME.matcher(Files.readString(source));
      while (m.find()) {
        named.add(m.group());
      }
    }
    assertThat(names()).containsAll(named);
  }

  @Test
  void serveHelp_listsEverySetting_withItsDefaultAndRange() {
    var out = new StringWriter();
    int exit =
        new CommandLine(new HongbaoCommand())
            .setOut(new PrintWriter(out))
            .execute("serve", "--help");
    assertThat(exit).isZero();
    String help = out.toString();
    var listed = new TreeSet<String>();
    Matcher m = Pattern.compile("(?m)^  (HONGBAO_[A-Z0-9_]+)$").matcher(help);
    while (m.find()) {
      listed.add(m.group(1));
    }
    assertThat(listed).isEqualTo(names());
    // picocli may wrap a long line: compare with runs of whitespace as one space
    String flat = help.replaceAll("\\s+", " ");
    for (Setting setting : Settings.all()) {
      assertThat(flat)
          .contains(
              " %s default: %s allowed: %s %s "
                  .formatted(
                      setting.name(), setting.byDefault(), setting.allowed(), setting.meaning())
                  .replaceAll("\\s+", " "));
    }
    assertThat(flat).contains(" HONGBAO_PAYOUT_BATCH default: 2000 allowed: 1..5000 ");
  }

  @Test
  void theReadmeTable_namesEverySetting_andNoOther_withTheIntegersDefaults() throws IOException {
    Map<String, String> rows = readmeRows();
    assertThat(rows.keySet()).isEqualTo(names());
    for (Setting setting : Settings.all()) {
      if (setting instanceof IntSetting number) {
        assertThat(rows.get(number.name()))
            .as("README default of %s", number.name())
            .containsPattern("\\b" + number.absent() + "\\b");
      }
    }
  }

  @Test
  void aFlagIsTrueOrFalse_notAnyOtherWord() {
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_DEV_MODE", "yes")))
        .hasMessage("HONGBAO_DEV_MODE must be true or false, not 'yes'");
    assertThat(
            Config.from(Map.of("HONGBAO_DEV_MODE", "FALSE", "HONGBAO_JWT_SECRET", "s")).devMode())
        .isFalse();
  }

  @Test
  void rewardSettings_outOfRange_stopTheStart() {
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_KAFKA_PARTITIONS", "0")))
        .hasMessage("HONGBAO_KAFKA_PARTITIONS=0 is out of range: allowed 1..10000 (default 4)");
  }

  @Test
  void theGatewayTimeout_isRefusedBeyondWhatTheJanitorsLeaseOutlasts() {
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_GATEWAY_TIMEOUT_MILLIS", "6001")))
        .hasMessage(
            "HONGBAO_GATEWAY_TIMEOUT_MILLIS=6001 is out of range: allowed 1..6000 (default 5000)");
    Duration longest =
        Config.from(Map.of("HONGBAO_GATEWAY_TIMEOUT_MILLIS", "6000")).gatewayTimeout();
    assertThat(WithdrawalTimings.DEFAULTS.requireLongerThan(HttpGateway.longestCall(longest)))
        .isEqualTo(WithdrawalTimings.DEFAULTS);
  }

  private static Set<String> names() {
    return Settings.all().stream()
        .map(Setting::name)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Variable to default cell, from the rows of the README table whose first cell names one. */
  private static Map<String, String> readmeRows() throws IOException {
    var rows = new TreeMap<String, String>();
    for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
      if (!line.startsWith("| `HONGBAO_")) {
        continue;
      }
      String[] cells = line.split("\\|");
      Matcher m = NAME.matcher(cells[1]);
      while (m.find()) {
        rows.put(m.group(), cells[2]);
      }
    }
    return rows;
  }

  private static Set<String> matches(Pattern pattern, Path file) {
    try {
      Matcher m = pattern.matcher(Files.readString(file));
      var found = new TreeSet<String>();
      while (m.find()) {
        found.add(m.group(1));
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<Path> mainSources() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files
          .filter(p -> p.toString().contains("/src/main/java/"))
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/settings/Settings.java"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
