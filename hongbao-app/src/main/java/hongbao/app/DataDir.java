package hongbao.app;

import hongbao.app.embedded.EmbeddedKafkaServer;
import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.TemporaryFiles;
import hongbao.app.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where the embedded default keeps what must survive a restart: the embedded Redis (its AOF), the
 * embedded PostgreSQL (wallets, packets, the id alphabet), the embedded Kafka's log directory
 * (reward events queued and not yet credited), the payment gateway simulator's book (what it paid,
 * so that a restarted service neither pays a withdrawal again nor finds its payments missing), the
 * grab receipts' keys (unless HONGBAO_TOKEN_KEYSET is set) and the dev-mode JWT secret (so tokens
 * stay valid). {@code HONGBAO_DATA_DIR}, default {@value #DEFAULT} in the working directory.
 * Outside servers (HONGBAO_REDIS_URL, HONGBAO_JDBC_URL) keep their data themselves.
 */
public record DataDir(Path root) {

  public static final String DEFAULT = ".hongbao-data";

  private static final String REDIS = "redis";
  private static final String POSTGRES = "postgres";
  private static final String KAFKA = "kafka";
  private static final String GATEWAY = "gateway";
  private static final String JWT_SECRET = "jwt-secret";
  private static final String TOKEN_KEYSET = "token-keyset.json";

  public static DataDir from(Map<String, String> env) {
    return new DataDir(Path.of(Settings.DATA_DIR.read(env).trim()));
  }

  public Path redis() {
    return root.resolve(REDIS);
  }

  public Path postgres() {
    return root.resolve(POSTGRES);
  }

  public Path kafka() {
    return root.resolve(KAFKA);
  }

  /** The book of the gateway simulator that stands in for the payment gateway when none is set. */
  public Path gatewayBook() {
    return root.resolve(GATEWAY).resolve("book.csv");
  }

  /**
   * Removes what this service keeps here, and only that: a data directory set by mistake to a
   * folder with other files loses none of them.
   */
  public void clear() {
    EmbeddedRedis.stopLeftOver(redis());
    EmbeddedPostgresServer.stopLeftOver(postgres());
    EmbeddedKafkaServer.stopLeftOver(kafka());
    TemporaryFiles.deleteTree(redis());
    TemporaryFiles.deleteTree(postgres());
    TemporaryFiles.deleteTree(kafka());
    TemporaryFiles.deleteTree(root.resolve(GATEWAY));
    TemporaryFiles.deleteTree(root.resolve(JWT_SECRET));
    TemporaryFiles.deleteTree(root.resolve(TOKEN_KEYSET));
  }

  /** The dev JWT secret kept here; made by {@code generate} and kept if there is none. */
  public String jwtSecret(Supplier<String> generate) {
    return kept(JWT_SECRET, generate);
  }

  /**
   * The Tink keyset sealing grab receipts, kept here so that a receipt still opens after a restart;
   * made by {@code generate} and kept if there is none.
   */
  public String tokenKeyset(Supplier<String> generate) {
    return kept(TOKEN_KEYSET, generate);
  }

  /** The secret in {@code name}, readable by the owner only; made and written when missing. */
  private String kept(String name, Supplier<String> generate) {
    Path file = root.resolve(name);
    try {
      if (Files.isRegularFile(file)) {
        String kept = Files.readString(file).trim();
        if (!kept.isEmpty()) {
          return kept;
        }
      }
      Files.createDirectories(root);
      String secret = generate.get();
      Files.writeString(file, secret);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      return secret;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep a secret in " + file, e);
    }
  }
}
