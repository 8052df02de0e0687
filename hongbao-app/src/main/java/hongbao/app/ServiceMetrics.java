package hongbao.app;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import javax.sql.DataSource;

/**
 * The metrics every operator expects beside the service's own: JVM memory, GC, threads and class
 * loading, CPU, uptime and file descriptors (Micrometer's binders), the PostgreSQL pool
 * (HikariCP's), the Redis commands (Lettuce's), and build info.
 */
final class ServiceMetrics {

  private ServiceMetrics() {}

  /**
   * Lettuce's recorder of Redis command latencies: {@code lettuce_command_completion_seconds} and
   * {@code lettuce_command_firstresponse_seconds}, by command type and Redis node. Count, sum, max
   * and the median and 99th percentile each; no histogram, whose default buckets would add about 70
   * series to every command and node.
   */
  static CommandLatencyRecorder redisCommands(MeterRegistry registry) {
    return new MicrometerCommandLatencyRecorder(
        registry,
        MicrometerOptions.builder()
            .histogram(false)
            .targetPercentiles(new double[] {0.5, 0.99})
            .build());
  }

  /** Binds them; the returned GC binder listens to the JVM until closed. */
  static AutoCloseable bind(MeterRegistry registry, DataSource database) {
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    var gc = new JvmGcMetrics();
    gc.bindTo(registry);
    if (database instanceof HikariDataSource pool) {
      // hikaricp_connections_* per pool: active, idle, pending, timeouts, acquire time.
      pool.setMetricRegistry(registry);
    }
    Gauge.builder("hongbao.build.info", () -> 1)
        .description("the running build: its version and Java runtime, as labels")
        .tag("version", Version.current())
        .tag("java", Runtime.version().toString())
        .register(registry);
    return gc;
  }
}
