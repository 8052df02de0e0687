package hongbao.kafka;

import hongbao.core.reward.AckWindow;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardHandler.Handling;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of the consumer group of a reward topic. Its poll thread (the caller of {@link
 * #pollOnce}) hands records to worker threads that handle them concurrently, and commits per
 * partition only up to the lowest offset not yet done ({@link AckWindow}): a crash never skips a
 * message, it only redelivers some done ones, which crediting by tradeNo absorbs. A worker keeps
 * its record until it is settled — waiting out a paused pipeline or an outage — so "done" always
 * means settled. Too many records in flight pause the partitions until workers catch up.
 *
 * <p>Only the poll thread touches the Kafka consumer (it is not thread-safe).
 */
public final class KafkaRewardConsumer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaRewardConsumer.class);
  private static final Duration LAG_EVERY = Duration.ofSeconds(2);
  private static final long RETRY_MILLIS = 200;

  private final KafkaConsumer<String, byte[]> consumer;
  private final String topic;
  private final RewardHandler handler;
  private final ExecutorService workers;
  private final Settings settings;
  private final AckWindow window = new AckWindow();
  private final AtomicReference<Throwable> fatal = new AtomicReference<>();
  private final AtomicLong lag = new AtomicLong();
  private final AtomicLong consumed = new AtomicLong();
  private volatile boolean running = true;
  private long lagMeasuredAtNanos;

  /** How a member polls and how much it keeps in flight. */
  public record Settings(Duration pollWait, int maxInFlight, Duration sessionTimeout) {}

  public KafkaRewardConsumer(
      String bootstrap,
      String topic,
      String consumerId,
      RewardHandler handler,
      ExecutorService workers,
      Settings settings) {
    this.topic = topic;
    this.handler = handler;
    this.workers = workers;
    this.settings = settings;
    this.consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                groupOf(topic),
                ConsumerConfig.CLIENT_ID_CONFIG,
                consumerId,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                Math.min(500, settings.maxInFlight()),
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                (int) settings.sessionTimeout().toMillis(),
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                (int) Math.max(100, settings.sessionTimeout().toMillis() / 5)),
            new StringDeserializer(),
            new ByteArrayDeserializer());
    consumer.subscribe(List.of(topic), new Rebalance());
  }

  /** The consumer group of a topic: every instance's member of it shares the partitions. */
  public static String groupOf(String topic) {
    return "hongbao-rewards-" + topic;
  }

  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      commit();
      partitions.forEach(p -> window.forget(p.partition()));
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      partitions.forEach(p -> window.forget(p.partition()));
    }
  }

  /**
   * Commits what is done, polls once and hands the records to the workers.
   *
   * @return how many records were taken
   */
  public int pollOnce() {
    Throwable bug = fatal.get();
    if (bug instanceof Error error) {
      throw error;
    }
    if (bug != null) {
      throw (RuntimeException) bug;
    }
    commit();
    if (window.inFlight() >= settings.maxInFlight()) {
      consumer.pause(consumer.assignment());
    } else if (!consumer.paused().isEmpty()) {
      consumer.resume(consumer.paused());
    }
    ConsumerRecords<String, byte[]> records;
    try {
      records = consumer.poll(settings.pollWait());
    } catch (WakeupException e) {
      return 0;
    }
    for (ConsumerRecord<String, byte[]> record : records) {
      AckWindow.Ticket ticket = window.track(record.partition(), record.offset());
      workers.execute(() -> work(record, ticket));
    }
    measureLag();
    return records.count();
  }

  private void work(ConsumerRecord<String, byte[]> record, AckWindow.Ticket ticket) {
    RewardEventCodec.Event event;
    try {
      event = RewardEventCodec.decode(record.value());
    } catch (RuntimeException e) {
      LOG.error("undecodable record {}-{}@{}: {}", topic, record.partition(), record.offset(), e);
      window.done(ticket);
      return;
    }
    while (running) {
      try {
        Handling handling = handler.handle(event.reward(), event.attempt());
        if (handling == Handling.PAUSED) {
          Thread.sleep(RETRY_MILLIS);
          continue;
        }
        consumed.incrementAndGet();
        window.done(ticket);
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Error bug) {
        LOG.error("bug while handling reward {}", event.reward().tradeNo(), bug);
        fatal.compareAndSet(null, bug);
        return;
      } catch (RuntimeException outage) {
        LOG.warn(
            "handling reward {} failed, retrying: {}", event.reward().tradeNo(), outage.toString());
        try {
          Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void commit() {
    Map<Integer, Long> committable = window.committable();
    if (committable.isEmpty()) {
      return;
    }
    var offsets = new HashMap<TopicPartition, OffsetAndMetadata>();
    committable.forEach(
        (partition, offset) ->
            offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(offset)));
    try {
      consumer.commitSync(offsets, Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      // A later commit covers these offsets; until then a crash only redelivers more.
      LOG.warn("committing {} offsets failed: {}", topic, e.toString());
    }
  }

  private void measureLag() {
    long now = System.nanoTime();
    if (now - lagMeasuredAtNanos < LAG_EVERY.toNanos()) {
      return;
    }
    lagMeasuredAtNanos = now;
    long total = 0;
    for (TopicPartition partition : consumer.assignment()) {
      total += consumer.currentLag(partition).orElse(0);
    }
    lag.set(total + window.inFlight());
  }

  public String topic() {
    return topic;
  }

  /** Records not yet consumed by this member (behind the fetch position, or in flight). */
  public long lag() {
    return lag.get();
  }

  public long consumed() {
    return consumed.get();
  }

  /** Stops as if the process died: nothing more is committed; the group hands its partitions on. */
  public void abort() {
    running = false;
    consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ZERO));
  }

  /** Waits a little for the records in flight, commits what is done and leaves the group. */
  @Override
  public void close() {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (window.inFlight() > 0 && System.nanoTime() < deadline && fatal.get() == null) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    running = false;
    commit();
    consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
  }
}
