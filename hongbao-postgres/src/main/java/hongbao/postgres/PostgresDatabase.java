package hongbao.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import hongbao.core.activity.ActivityStore;
import hongbao.core.ledger.Ledger;
import hongbao.core.packet.PacketStore;
import hongbao.core.reconcile.LedgerAudit;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The PostgreSQL side of hongbao: a connection pool, the schema migrated to the newest version on
 * open, and the adapters that share the pool. Close it to release the connections.
 */
public final class PostgresDatabase implements AutoCloseable {

  private static final long VALIDATION_MAX_MILLIS = 1_000;

  private final HikariDataSource dataSource;
  private final Transactions transactions;

  private PostgresDatabase(HikariDataSource dataSource, RandomGenerator jitter) {
    this.dataSource = dataSource;
    this.transactions = new Transactions(dataSource, jitter);
  }

  /**
   * Connects, migrates and returns the open database, spreading retries with a fixed-seed jitter
   * (tests and tools; a service passes its own, seeded by the root).
   */
  public static PostgresDatabase open(PostgresConfig config) {
    return open(config, RandomGeneratorFactory.of("L64X128MixRandom").create(0));
  }

  /**
   * Connects, migrates (creating the schema if it is missing) and returns the open database; {@code
   * jitter} spreads the retries of transiently refused transactions.
   */
  public static PostgresDatabase open(PostgresConfig config, RandomGenerator jitter) {
    HikariDataSource dataSource = new HikariDataSource(hikari(config));
    try {
      migrate(dataSource, config.schema());
      return new PostgresDatabase(dataSource, jitter);
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  private static HikariConfig hikari(PostgresConfig config) {
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName("hongbao-postgres");
    hikari.setJdbcUrl(config.jdbcUrl());
    if (config.user() != null) {
      hikari.setUsername(config.user());
    }
    if (config.password() != null) {
      hikari.setPassword(config.password());
    }
    if (config.schema() != null) {
      hikari.setSchema(config.schema());
    }
    hikari.setMaximumPoolSize(config.poolSize());
    hikari.setMinimumIdle(config.poolSize());
    // Every unit of work runs in an explicit transaction (see Transactions).
    hikari.setAutoCommit(false);
    PostgresConfig.Timeouts timeouts = config.timeouts();
    hikari.setConnectionTimeout(timeouts.connect().toMillis());
    // Below the connection timeout, as HikariCP requires; checking a connection is one round trip.
    hikari.setValidationTimeout(Math.min(timeouts.connect().toMillis() / 2, VALIDATION_MAX_MILLIS));
    int connectSeconds = PostgresConfig.Timeouts.wholeSeconds(timeouts.connect());
    hikari.addDataSourceProperty("connectTimeout", Integer.toString(connectSeconds));
    hikari.addDataSourceProperty("loginTimeout", Integer.toString(connectSeconds));
    hikari.addDataSourceProperty(
        "socketTimeout", Integer.toString(PostgresConfig.Timeouts.wholeSeconds(timeouts.socket())));
    hikari.addDataSourceProperty("tcpKeepAlive", "true");
    // A session setting made once per connection, committed on its own (isolated) so that it
    // outlives every transaction on the connection, rolled back ones included.
    hikari.setConnectionInitSql("SET statement_timeout = " + timeouts.statement().toMillis());
    hikari.setIsolateInternalQueries(true);
    // Multi-row statements are prepared once per connection and reused by every batch.
    hikari.addDataSourceProperty("prepareThreshold", "1");
    return hikari;
  }

  private static void migrate(DataSource dataSource, String schema) {
    var flyway = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration");
    if (schema != null) {
      flyway.schemas(schema).createSchemas(true);
    }
    flyway.load().migrate();
  }

  public DataSource dataSource() {
    return dataSource;
  }

  public Ledger ledger() {
    return new PostgresLedger(transactions);
  }

  public PacketStore packets() {
    return new PostgresPacketStore(transactions);
  }

  public ActivityStore activities() {
    return new PostgresActivityStore(transactions);
  }

  public hongbao.core.reward.RewardBook rewards() {
    return new PostgresRewardBook(transactions);
  }

  public hongbao.core.campaign.CampaignStore campaigns() {
    return new PostgresCampaigns(transactions);
  }

  /** The stored idempotency answers, for their retention. */
  public hongbao.core.ledger.AnswerRetention.Answers answers() {
    return new PostgresAnswers(transactions);
  }

  public LedgerAudit audit() {
    return new PostgresLedgerAudit(transactions);
  }

  public hongbao.core.ops.InstallSettings installSettings() {
    return new PostgresInstallSettings(transactions);
  }

  public PostgresWithdrawals withdrawals() {
    return new PostgresWithdrawals(transactions);
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
