package hongbao.app.keys;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.redis.RedisKeys;
import hongbao.redis.reward.RewardKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Holds the key formats spelled in Java, SQL and Lua to the one table in docs/keys.md: a prefix, a
 * Redis key or a code used anywhere and missing from the table fails here, and so does a row of the
 * table that nothing uses.
 */
class KeyTableTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern CODE_CELL = Pattern.compile("^\\|\\s*`([^`]+)`");
  private static final Pattern PLACEHOLDER = Pattern.compile("<[^>\\s]*>?");

  /** A Java string literal ending in a colon and followed by {@code +}: a key prefix. */
  private static final Pattern JAVA_PREFIX = Pattern.compile("\"([a-z][a-z-]*):\"\\s*\\+");

  /** An SQL literal starting with a lowercase word and a colon: a key prefix. */
  private static final Pattern SQL_PREFIX = Pattern.compile("(?<![A-Za-z])'([a-z][a-z-]*):");

  private static final Pattern LUA_KEY = Pattern.compile("hb:[^\\s,)]+");

  private static Map<String, List<String[]>> sections;

  @BeforeAll
  static void readTable() throws IOException {
    sections = new LinkedHashMap<>();
    List<String[]> rows = null;
    for (String line : Files.readAllLines(ROOT.resolve("docs/keys.md"))) {
      if (line.startsWith("## ")) {
        rows = new ArrayList<>();
        sections.put(line.substring(3).trim(), rows);
      } else if (rows != null && CODE_CELL.matcher(line).find()) {
        String[] cells = line.substring(1).split("(?<!\\\\)\\|");
        for (int i = 0; i < cells.length; i++) {
          cells[i] = cells[i].trim().replace("`", "").replace("\\|", "|");
        }
        rows.add(cells);
      }
    }
    assertThat(sections)
        .containsKeys(
            "Ledger accounts", "Ledger transfer keys", "Redis keys", "Codes in a packet's hash");
  }

  @Test
  void everyLedgerPrefixInJavaAndSql_isInTheTable_andEveryRowIsUsed() {
    var used = new TreeSet<String>();
    for (Path file : files("hongbao-core", "hongbao-postgres", "hongbao-testkit")) {
      String text = read(file);
      used.addAll(groups(JAVA_PREFIX, text));
      used.addAll(groups(SQL_PREFIX, text));
    }
    Set<String> table = ledgerPrefixes();
    assertThat(table).as("prefixes in docs/keys.md").containsAll(used);
    assertThat(used).as("prefixes used in code").containsAll(withColon(table));
    String sql =
        files("hongbao-postgres").stream()
            .map(KeyTableTest::read)
            .collect(Collectors.joining("\n"));
    for (String whole : wholeNames(table)) {
      assertThat(sql).as("account %s", whole).contains("'" + whole + "'");
    }
  }

  @Test
  void redisKeysBuiltInJava_matchATableRow() {
    var keys = new RedisKeys(1024, "hb");
    var rewards = new RewardKeys("hb");
    long packet = 1_234_567;
    List<String> built =
        List.of(
            keys.meta(packet),
            keys.shares(packet),
            keys.grabs(packet),
            keys.eligible(packet),
            keys.activityGrabs(42),
            keys.payouts(17),
            keys.deadLetters(17),
            keys.pending("alice"),
            keys.switches(),
            rewards.campaigns(),
            rewards.budget("c1", 3),
            rewards.trades("c1", 3),
            rewards.tokens("alice", "c1"),
            rewards.tokenCampaigns("alice"),
            rewards.types(),
            rewards.bucket("coupon"),
            rewards.issuedIn("coupon", 1_700_000_000L),
            rewards.stream("rewards-massive"),
            rewards.streams("rewards-massive", 4).get(2),
            rewards.parked("coupon"),
            rewards.parkedTypes(),
            rewards.tradeClaims(7),
            rewards.failures());
    List<Pattern> rows = redisRows().stream().map(KeyTableTest::asRegex).toList();
    for (String key : built) {
      assertThat(rows).as(key).anyMatch(row -> row.matcher(key).matches());
    }
  }

  @Test
  void everySegmentOfARedisKeyInJava_isInTheTable() {
    Set<String> segments = new TreeSet<>();
    for (String row : redisRows()) {
      Matcher m = Pattern.compile(":([a-z]+)").matcher(PLACEHOLDER.matcher(row).replaceAll(""));
      while (m.find()) {
        segments.add(m.group(1));
      }
    }
    var used = new TreeSet<String>();
    for (String file :
        List.of(
            "hongbao-redis/src/main/java/hongbao/redis/RedisKeys.java",
            "hongbao-redis/src/main/java/hongbao/redis/reward/RewardKeys.java",
            "hongbao-redis/src/main/java/hongbao/redis/campaign/RainKeys.java")) {
      Matcher literal = Pattern.compile("\"([^\"]*:[^\"]*)\"").matcher(read(ROOT.resolve(file)));
      while (literal.find()) {
        used.addAll(groups(Pattern.compile(":([a-z]+)"), literal.group(1)));
      }
    }
    assertThat(segments).as("segments in docs/keys.md").containsAll(used);
  }

  @Test
  void everyKeyALuaScriptNames_isATableRow() {
    Set<String> table =
        redisRows().stream().map(KeyTableTest::normalized).collect(Collectors.toSet());
    var named = new TreeSet<String>();
    for (Path script : lua()) {
      for (String key : groups(LUA_KEY, read(script), 0)) {
        named.add(normalized(key));
      }
    }
    assertThat(named).isNotEmpty();
    assertThat(table).as("keys in docs/keys.md").containsAll(named);
  }

  @Test
  void everyCodeInAPacketsHash_isInTheTable_andEveryRowIsUsed() {
    var table = new TreeSet<String>();
    var tableLetters = new TreeSet<String>();
    for (String[] row : sections.get("Codes in a packet's hash")) {
      table.add(row[0] + "=" + row[1]);
      tableLetters.add(row[1]);
    }
    var letters = new TreeSet<String>();
    var pairs = new TreeSet<String>();
    for (Path script : lua()) {
      String text = read(script);
      letters.addAll(groups(Pattern.compile("'([A-Z])'"), text));
      Matcher set = Pattern.compile("'(status|type|mode)', '([A-Z])'").matcher(text);
      while (set.find()) {
        pairs.add(set.group(1) + "=" + set.group(2));
      }
    }
    String grabStore =
        read(ROOT.resolve("hongbao-redis/src/main/java/hongbao/redis/grab/RedisGrabStore.java"));
    letters.addAll(groups(Pattern.compile("\"([A-Z])\""), grabStore));
    assertThat(tableLetters).as("codes in docs/keys.md").containsAll(letters);
    assertThat(letters).as("codes used in Lua and Java").containsAll(tableLetters);
    assertThat(table).as("field=code pairs in docs/keys.md").containsAll(pairs);
  }

  private static List<String> redisRows() {
    return sections.get("Redis keys").stream().map(row -> row[0]).toList();
  }

  private static Set<String> ledgerPrefixes() {
    return Stream.concat(
            sections.get("Ledger accounts").stream(), sections.get("Ledger transfer keys").stream())
        .map(row -> row[0].contains(":") ? row[0].substring(0, row[0].indexOf(':')) : row[0])
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> withColon(Set<String> prefixes) {
    return prefixes.stream()
        .filter(p -> ledgerKeysWithColon().contains(p))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> wholeNames(Set<String> prefixes) {
    return prefixes.stream()
        .filter(p -> !ledgerKeysWithColon().contains(p))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> ledgerKeysWithColon() {
    return Stream.concat(
            sections.get("Ledger accounts").stream(), sections.get("Ledger transfer keys").stream())
        .map(row -> row[0])
        .filter(key -> key.contains(":"))
        .map(key -> key.substring(0, key.indexOf(':')))
        .collect(Collectors.toSet());
  }

  /** A row as a regex: a placeholder is one or more characters other than braces. */
  private static Pattern asRegex(String row) {
    // {sNNN} is a shard tag, not a placeholder: marked apart before the placeholders are found
    String text = row.replace("{sNNN}", "\u0000");
    var regex = new StringBuilder();
    Matcher m = PLACEHOLDER.matcher(text);
    int at = 0;
    while (m.find()) {
      regex.append(literal(text.substring(at, m.start()))).append("[^{}]+");
      at = m.end();
    }
    regex.append(literal(text.substring(at)));
    return Pattern.compile(regex.toString());
  }

  private static String literal(String text) {
    return Stream.of(text.split("\u0000", -1))
        .map(Pattern::quote)
        .collect(Collectors.joining("\\{s\\d{3}\\}"));
  }

  /** Placeholders named apart ({@code <id>}, {@code <packetId>}) compare equal. */
  private static String normalized(String key) {
    return PLACEHOLDER.matcher(key).replaceAll("<>");
  }

  private static List<Path> lua() {
    try (Stream<Path> files = Files.list(ROOT.resolve("hongbao-redis/src/main/resources/lua"))) {
      return files.filter(p -> p.toString().endsWith(".lua")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> files(String... modules) {
    var found = new ArrayList<Path>();
    for (String module : modules) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main"))) {
        files
            .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".sql"))
            .sorted()
            .forEach(found::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found;
  }

  private static Set<String> groups(Pattern pattern, String text) {
    return groups(pattern, text, 1);
  }

  private static Set<String> groups(Pattern pattern, String text, int group) {
    var found = new TreeSet<String>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group(group));
    }
    return found;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
