package hongbao.redis.payout;

import hongbao.core.Invariants;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisFaults;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XPendingArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payout queue on the shards' Redis streams, read through the consumer group {@value #GROUP}. A
 * grab script appends {@code p, u, a, t}; a worker polls, pays, and acks, which also removes the
 * entry (so an acknowledged grab costs no stream memory) and clears the user's pending entry. The
 * removal trims the acknowledged head of the stream ({@code ack.lua}), much cheaper for Redis than
 * deleting each entry; only entries acknowledged while an older one is still pending are deleted
 * one by one, so the stream always holds exactly the tasks not yet acknowledged.
 *
 * <p>A read names as many streams as one command may: every stream on one server, the streams of
 * one hash slot on a cluster (a cluster answers CROSSSLOT otherwise). The reads of one poll are
 * pipelined in waves of {@value #READS_PER_WAVE}, starting at a rotating wave so that no shard
 * starves; each read goes to the master owning its slot, which follows the slot when it moves
 * (MOVED/ASK), and a slot whose streams are split mid-move (TRYAGAIN) is simply read next time.
 * Entries move with their stream, consumer group and pending list (MIGRATE carries all three), so a
 * task polled before the move is acknowledged after it on the new master, and is never lost; one
 * polled twice is paid once (the ledger's unique keys).
 *
 * <p>XREADGROUP takes COUNT per stream, so one poll can bring more than {@code max} entries; the
 * surplus is already this consumer's (pending in its name), so it is kept in a local buffer and
 * handed out by the consumer's next poll. If the process dies meanwhile, the entries are reclaimed
 * by another consumer like any other stale task.
 *
 * <p>Waiting: on one server a poll that found nothing blocks in one XREADGROUP over every stream.
 * Streams of several slots cannot be waited on with one command, so on a cluster a poll that found
 * nothing looks again after a pause that grows with the number of slots read (one command per slot,
 * at most {@value #IDLE_READS_PER_SECOND} reads a second per waiting poller), until its wait is
 * over.
 *
 * <p>Thread-safe. Reads use connections of their own (a blocked or long read would stall every
 * command behind it), pooled so that concurrent pollers do not wait for each other.
 */
public final class RedisPayoutQueue implements PayoutQueue, AutoCloseable {

  public static final String GROUP = "payout";

  /** Streams named in one XREADGROUP on one server; more shards are read in several calls. */
  static final int STREAMS_PER_READ = 1024;

  /** Reads pipelined at once; bounds the surplus one poll can take to this many times max. */
  static final int READS_PER_WAVE = 64;

  /** What an idle poller may cost a cluster: reads per second while it waits. */
  static final int IDLE_READS_PER_SECOND = 5_000;

  private static final Duration IDLE_PAUSE_MIN = Duration.ofMillis(10);

  /** Limit on tasks per call, whatever the caller asks for. */
  public static final int MAX_BATCH = 10_000;

  /** Below Lettuce's default command timeout (60 s), which also bounds a blocking read. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);
  private static final LuaScript DEAD_LETTER = LuaScript.fromResource("deadletter.lua");
  private static final LuaScript REDRIVE = LuaScript.fromResource("redrive.lua");
  private static final LuaScript ACK = LuaScript.fromResource("ack.lua");
  private static final LuaScript BACKLOG = LuaScript.fromResource("backlog.lua");
  private static final LuaScript OLDEST = LuaScript.fromResource("oldest.lua");
  private static final LuaScript UNPEND = LuaScript.fromResource("unpend.lua");
  private static final LuaScript PRUNE = LuaScript.fromResource("prune.lua");

  private final RedisLink redis;
  private final RedisKeys keys;
  private final RedisLink commands;
  private final List<List<String>> streamGroups;
  private final Duration idlePause;
  private final Deque<RedisLink> readers = new ConcurrentLinkedDeque<>();
  private final Map<String, Deque<PayoutTask>> surplus = new ConcurrentHashMap<>();
  private final AtomicInteger nextWave = new AtomicInteger();

  /**
   * Makes the consumer group on every payout stream. Opens connections of its own from {@code
   * redis} (closed by {@link #close()}); {@code redis} itself stays the caller's.
   */
  public RedisPayoutQueue(RedisLink redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
    this.commands = redis.another();
    List<String> streams = keys.allPayoutStreams();
    this.streamGroups = List.copyOf(redis.groupsOf(streams, STREAMS_PER_READ));
    long pauseMillis = 1_000L * streamGroups.size() / IDLE_READS_PER_SECOND;
    this.idlePause = Duration.ofMillis(Math.max(IDLE_PAUSE_MIN.toMillis(), pauseMillis));
    try {
      DEAD_LETTER.load(commands);
      ACK.load(commands);
      BACKLOG.load(commands);
      UNPEND.load(commands);
      createGroups(streams);
    } catch (RuntimeException e) {
      commands.close();
      throw e;
    }
  }

  /** XGROUP CREATE ... MKSTREAM on every stream, pipelined; an existing group is fine. */
  private void createGroups(List<String> streams) {
    redis.refuseBlocking("creating the payout streams' groups");
    var async = commands.async();
    var futures = new ArrayList<RedisFuture<String>>(streams.size());
    for (String stream : streams) {
      futures.add(
          async.xgroupCreate(
              StreamOffset.from(stream, "0"), GROUP, XGroupCreateArgs.Builder.mkstream()));
    }
    for (RedisFuture<String> future : futures) {
      try {
        future.get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RedisCommandExecutionException redis
            && String.valueOf(redis.getMessage()).startsWith("BUSYGROUP"))) {
          throw RedisFaults.translate(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted creating payout consumer groups", e);
      } catch (TimeoutException e) {
        throw new Unavailable("redis", "timed out creating payout consumer groups", e);
      }
    }
  }

  @Override
  public List<PayoutTask> poll(String consumer, int max, Duration wait) {
    checkBatch(max);
    if (wait.compareTo(MAX_WAIT) > 0) {
      throw new IllegalArgumentException("wait must be at most " + MAX_WAIT + ": " + wait);
    }
    var tasks = new ArrayList<PayoutTask>(Math.min(max, 1_024));
    Deque<PayoutTask> buffered = surplus.get(consumer);
    if (buffered != null) {
      PayoutTask task;
      while (tasks.size() < max && (task = buffered.pollFirst()) != null) {
        tasks.add(task);
      }
      if (!tasks.isEmpty()) {
        return tasks;
      }
    }
    List<StreamMessage<String, String>> read;
    try {
      read = read(consumer, max, wait);
    } catch (RedisCommandExecutionException e) {
      if (!isNoGroup(e)) {
        throw e;
      }
      // The streams and their groups were lost (Redis restarted empty or rolled back): make them
      // again and read once more. Tasks lost with them are the receipts' to claim.
      createGroups(keys.allPayoutStreams());
      read = read(consumer, max, wait);
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
    for (StreamMessage<String, String> message : read) {
      PayoutTask task = toTask(message.getStream(), message);
      if (tasks.size() < max) {
        tasks.add(task);
      } else {
        surplus.computeIfAbsent(consumer, c -> new ConcurrentLinkedDeque<>()).addLast(task);
      }
    }
    return tasks;
  }

  /**
   * One sweep over every stream group; if nothing came and there is a wait: one blocking read when
   * a single command names every stream, else further sweeps after pauses until the wait is over.
   */
  private List<StreamMessage<String, String>> read(String consumer, int max, Duration wait) {
    RedisLink reader = borrowReader();
    try {
      var group = Consumer.from(GROUP, consumer);
      List<StreamMessage<String, String>> messages = sweep(reader, group, max);
      if (!messages.isEmpty() || wait.isZero() || wait.isNegative()) {
        return messages;
      }
      if (streamGroups.size() == 1) {
        return reader
            .sync()
            .xreadgroup(
                group, XReadArgs.Builder.count(max).block(wait), lastConsumed(streamGroups.get(0)));
      }
      long deadline = System.nanoTime() + wait.toNanos();
      while (messages.isEmpty()) {
        long leftNanos = deadline - System.nanoTime();
        if (leftNanos <= 0) {
          break;
        }
        pause(Math.min(leftNanos, idlePause.toNanos()));
        messages = sweep(reader, group, max);
      }
      return messages;
    } finally {
      readers.offerFirst(reader);
    }
  }

  /**
   * Non-blocking reads of every stream group, pipelined a wave at a time, until {@code max} came.
   * The first wave rotates from poll to poll.
   */
  private List<StreamMessage<String, String>> sweep(
      RedisLink reader, Consumer<String> group, int max) {
    int groups = streamGroups.size();
    int first = Math.floorMod(nextWave.getAndAdd(READS_PER_WAVE), groups);
    var messages = new ArrayList<StreamMessage<String, String>>();
    var async = reader.async();
    for (int from = 0; from < groups && messages.size() < max; from += READS_PER_WAVE) {
      var args = XReadArgs.Builder.count(max - messages.size());
      var wave = new ArrayList<RedisFuture<List<StreamMessage<String, String>>>>();
      for (int i = from; i < Math.min(from + READS_PER_WAVE, groups); i++) {
        wave.add(
            async.xreadgroup(group, args, lastConsumed(streamGroups.get((first + i) % groups))));
      }
      awaitDone(wave);
      for (RedisFuture<List<StreamMessage<String, String>>> read : wave) {
        messages.addAll(readOrNothing(read));
      }
    }
    return messages;
  }

  /** A read's entries; none for a slot caught mid-move (TRYAGAIN): it is read again next time. */
  private static List<StreamMessage<String, String>> readOrNothing(
      RedisFuture<List<StreamMessage<String, String>>> read) {
    try {
      return read.get();
    } catch (ExecutionException e) {
      if (RedisFaults.isTryAgain(e)) {
        return List.of();
      }
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure; // NOGROUP is handled by poll
      }
      throw RedisFaults.translate(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("redis", "interrupted reading payout streams", e);
    }
  }

  private static void pause(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("redis", "interrupted waiting for payout tasks", e);
    }
  }

  private static boolean isNoGroup(Throwable e) {
    return String.valueOf(e.getMessage()).startsWith("NOGROUP");
  }

  @SuppressWarnings("unchecked") // generic arrays cannot be created otherwise
  private static StreamOffset<String>[] lastConsumed(List<String> streams) {
    StreamOffset<String>[] offsets = (StreamOffset<String>[]) new StreamOffset<?>[streams.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = StreamOffset.lastConsumed(streams.get(i));
    }
    return offsets;
  }

  private RedisLink borrowReader() {
    RedisLink reader = readers.pollFirst();
    return reader != null ? reader : redis.another();
  }

  @Override
  public void ack(List<PayoutTask> tasks) {
    if (tasks.isEmpty()) {
      return;
    }
    var idsByStream = new LinkedHashMap<String, List<String>>();
    for (PayoutTask task : tasks) {
      String[] tag = task.deliveryTag().split(" ", 2);
      Invariants.check(tag.length == 2, "malformed delivery tag %s", task.deliveryTag());
      idsByStream.computeIfAbsent(tag[0], s -> new ArrayList<>()).add(tag[1]);
    }
    var async = commands.async();
    var futures = new ArrayList<RedisFuture<?>>();
    var removals = new ArrayList<CompletableFuture<?>>();
    idsByStream.forEach(
        (stream, ids) -> {
          if (RedisKeys.isDeadLetters(stream)) {
            futures.add(async.xdel(stream, ids.toArray(String[]::new)));
          } else {
            removals.add(acknowledge(stream, ids));
          }
        });
    if (redis.isCluster()) {
      for (PayoutTask task : tasks) {
        futures.add(async.hdel(keys.pending(task.userId()), Long.toString(task.packetId())));
      }
    } else {
      removals.add(unpend(tasks));
    }
    awaitDone(removals);
    await(futures);
    removals.forEach(this::join);
  }

  /** unpend.lua: every task's pending entry in one call (one server only, see the script). */
  private CompletableFuture<Long> unpend(List<PayoutTask> tasks) {
    String[] hashes = new String[tasks.size()];
    String[] packetIds = new String[tasks.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = keys.pending(tasks.get(i).userId());
      packetIds[i] = Long.toString(tasks.get(i).packetId());
    }
    return UNPEND
        .<Long>runAsync(commands, ScriptOutputType.INTEGER, hashes, packetIds)
        .toCompletableFuture();
  }

  /** ack.lua on one stream: XACK, then trim the acknowledged head (see the script's header). */
  private CompletableFuture<Long> acknowledge(String stream, List<String> ids) {
    String[] args = new String[ids.size() + 1];
    args[0] = GROUP;
    for (int i = 0; i < ids.size(); i++) {
      args[i + 1] = ids.get(i);
    }
    return ACK.<Long>runAsync(commands, ScriptOutputType.INTEGER, new String[] {stream}, args)
        .toCompletableFuture();
  }

  @Override
  public List<PayoutTask> reclaim(String consumer, Duration minIdle, int maxDeliveries, int max) {
    try {
      return reclaimStale(consumer, minIdle, maxDeliveries, max);
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  private List<PayoutTask> reclaimStale(
      String consumer, Duration minIdle, int maxDeliveries, int max) {
    checkBatch(max);
    Invariants.check(maxDeliveries >= 1, "maxDeliveries must be positive: %s", maxDeliveries);
    var tasks = new ArrayList<PayoutTask>();
    for (String stream : streamsWithPending()) {
      if (tasks.size() >= max) {
        break;
      }
      tasks.addAll(reclaim(stream, consumer, minIdle, maxDeliveries, max - tasks.size()));
    }
    return tasks;
  }

  /**
   * Pipelines one XPENDING summary per stream; only streams with pending entries are worth more.
   */
  private List<String> streamsWithPending() {
    var async = commands.async();
    List<String> streams = keys.allPayoutStreams();
    var summaries = new ArrayList<RedisFuture<PendingMessages>>(streams.size());
    for (String stream : streams) {
      summaries.add(async.xpending(stream, GROUP));
    }
    awaitDone(summaries);
    var pending = new ArrayList<String>();
    boolean groupsLost = false;
    for (int i = 0; i < streams.size(); i++) {
      try {
        if (join(summaries.get(i)).getCount() > 0) {
          pending.add(streams.get(i));
        }
      } catch (RuntimeException e) {
        if (!isNoGroup(e.getCause() == null ? e : e.getCause())) {
          throw RedisFaults.translate(e);
        }
        groupsLost = true;
      }
    }
    if (groupsLost) {
      createGroups(streams);
    }
    return pending;
  }

  /**
   * Entries delivered more than {@code maxDeliveries} times go to the dead-letter stream; the rest
   * are claimed with XCLAIM and its min-idle guard, so a task that another reaper (or its own
   * consumer) touched meanwhile is not taken twice.
   */
  private List<PayoutTask> reclaim(
      String stream, String consumer, Duration minIdle, int maxDeliveries, int max) {
    var sync = commands.sync();
    var args =
        new XPendingArgs<String>()
            .group(GROUP)
            .idle(minIdle)
            .range(Range.unbounded())
            .limit(Limit.from(max));
    List<PendingMessage> stale = sync.xpending(stream, args);
    var claim = new ArrayList<String>();
    for (PendingMessage message : stale) {
      if (message.getRedeliveryCount() > maxDeliveries) {
        deadLetter(
            stream,
            message.getId(),
            minIdle,
            "delivered " + message.getRedeliveryCount() + " times without being paid");
      } else {
        claim.add(message.getId());
      }
    }
    if (claim.isEmpty()) {
      return List.of();
    }
    List<StreamMessage<String, String>> claimed =
        sync.xclaim(
            stream,
            Consumer.from(GROUP, consumer),
            XClaimArgs.Builder.minIdleTime(minIdle),
            claim.toArray(String[]::new));
    var tasks = new ArrayList<PayoutTask>(claimed.size());
    for (StreamMessage<String, String> message : claimed) {
      if (message != null && message.getBody() != null && !message.getBody().isEmpty()) {
        tasks.add(toTask(stream, message));
      }
    }
    return tasks;
  }

  private void deadLetter(String stream, String id, Duration minIdle, String reason) {
    String[] scriptKeys = {stream, RedisKeys.deadLettersOf(stream)};
    DEAD_LETTER.<Long>run(
        commands,
        ScriptOutputType.INTEGER,
        scriptKeys,
        GROUP,
        id,
        Long.toString(minIdle.toMillis()),
        reason);
  }

  @Override
  public void deadLetter(PayoutTask task, String reason) {
    String[] tag = task.deliveryTag().split(" ", 2);
    Invariants.check(tag.length == 2, "malformed delivery tag %s", task.deliveryTag());
    deadLetter(tag[0], tag[1], Duration.ZERO, reason);
    try {
      commands.sync().hdel(keys.pending(task.userId()), Long.toString(task.packetId()));
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  @Override
  public List<DeadLetter> deadLetters(int max) {
    checkBatch(max);
    var async = commands.async();
    List<String> streams = keys.allDeadLetterStreams();
    var pages = new ArrayList<RedisFuture<List<StreamMessage<String, String>>>>(streams.size());
    for (String stream : streams) {
      pages.add(async.xrange(stream, Range.unbounded(), Limit.from(max)));
    }
    await(pages);
    var dead = new ArrayList<DeadLetter>();
    for (int i = 0; i < streams.size() && dead.size() < max; i++) {
      for (StreamMessage<String, String> message : join(pages.get(i))) {
        if (dead.size() == max) {
          break;
        }
        String reason = message.getBody().getOrDefault("r", "delivered too often");
        dead.add(new DeadLetter(toTask(streams.get(i), message), reason));
      }
    }
    return dead;
  }

  /**
   * Moves the entry back from its dead-letter stream to the payout stream of its slot, without the
   * dead letter's own fields ({@code redrive.lua}, atomic: two operators retrying one task move it
   * once). An id that names no dead-letter stream of this install is no dead letter.
   */
  @Override
  public boolean redrive(String deadLetterId) {
    String[] tag = deadLetterId.split(" ", 2);
    if (tag.length != 2
        || !RedisKeys.isDeadLetters(tag[0])
        || !keys.allDeadLetterStreams().contains(tag[0])
        || !STREAM_ID.matcher(tag[1]).matches()) {
      return false;
    }
    String payouts = tag[0].substring(0, tag[0].length() - ":dead".length());
    Invariants.check(
        RedisKeys.deadLettersOf(payouts).equals(tag[0]), "dead letters of %s", payouts);
    Long moved =
        REDRIVE.<Long>run(
            commands, ScriptOutputType.INTEGER, new String[] {tag[0], payouts}, tag[1]);
    return moved != null && moved == 1;
  }

  /** A stream entry id: milliseconds and a sequence number. */
  private static final java.util.regex.Pattern STREAM_ID =
      java.util.regex.Pattern.compile("[0-9]{1,20}-[0-9]{1,20}");

  /**
   * One {@code prune.lua} per stream, pipelined: a consumer with nothing pending and idle longer
   * than {@code idle} is deleted (XGROUP DELCONSUMER drops only its name: it holds no entries). The
   * check and the delete are one script, so a consumer that claims tasks in between is not deleted
   * with them.
   */
  @Override
  public int removeIdleConsumers(Duration idle) {
    List<String> streams = keys.allPayoutStreams();
    var removals = new ArrayList<CompletableFuture<Long>>(streams.size());
    for (String stream : streams) {
      removals.add(
          PRUNE
              .<Long>runAsync(
                  commands,
                  ScriptOutputType.INTEGER,
                  new String[] {stream},
                  GROUP,
                  Long.toString(idle.toMillis()))
              .toCompletableFuture());
    }
    awaitDone(removals);
    long removed = 0;
    for (CompletableFuture<Long> count : removals) {
      removed += join(count);
    }
    return Math.toIntExact(removed);
  }

  /** One backlog.lua per stream group (every stream on one server, a slot's on a cluster). */
  @Override
  public long backlog() {
    var sums = new ArrayList<CompletableFuture<Long>>(streamGroups.size());
    for (List<String> group : streamGroups) {
      sums.add(
          BACKLOG
              .<Long>runAsync(commands, ScriptOutputType.INTEGER, group.toArray(String[]::new))
              .toCompletableFuture());
    }
    awaitDone(sums);
    long total = 0;
    for (CompletableFuture<Long> sum : sums) {
      total += join(sum);
    }
    return total;
  }

  /** One oldest.lua per stream group, as {@link #backlog()}. */
  @Override
  public List<PayoutTask> waitingHeads(Instant grabbedBefore, int max) {
    var heads = new ArrayList<CompletableFuture<List<Object>>>(streamGroups.size());
    for (List<String> group : streamGroups) {
      heads.add(
          OLDEST
              .<List<Object>>runAsync(
                  commands,
                  ScriptOutputType.MULTI,
                  group.toArray(String[]::new),
                  Long.toString(grabbedBefore.toEpochMilli()),
                  Integer.toString(max))
              .toCompletableFuture());
    }
    awaitDone(heads);
    var tasks = new ArrayList<PayoutTask>();
    for (CompletableFuture<List<Object>> head : heads) {
      for (Object entry : join(head)) {
        if (tasks.size() < max) {
          tasks.add(toTask((List<?>) entry));
        }
      }
    }
    return tasks;
  }

  /** One entry as oldest.lua answers it: stream, entry id, then the fields and values. */
  private static PayoutTask toTask(List<?> entry) {
    String stream = (String) entry.get(0);
    var body = new HashMap<String, String>();
    for (int i = 2; i + 1 < entry.size(); i += 2) {
      body.put((String) entry.get(i), (String) entry.get(i + 1));
    }
    return toTask(stream, new StreamMessage<>(stream, (String) entry.get(1), body));
  }

  private static PayoutTask toTask(String stream, StreamMessage<String, String> message) {
    Map<String, String> body = message.getBody();
    String packet = body.get("p");
    String user = body.get("u");
    String amount = body.get("a");
    String at = body.get("t");
    Invariants.check(
        packet != null && user != null && amount != null && at != null,
        "malformed payout entry %s %s: %s",
        stream,
        message.getId(),
        body);
    // The packet's creation time: absent from tasks queued by an older version.
    String created = body.get("c");
    return new PayoutTask(
        Long.parseLong(packet),
        user,
        Amount.fen(Long.parseLong(amount)),
        Instant.ofEpochMilli(Long.parseLong(at)),
        stream + " " + message.getId(),
        created == null || created.isEmpty()
            ? null
            : Instant.ofEpochMilli(Long.parseLong(created)));
  }

  private static void checkBatch(int max) {
    if (max < 1 || max > MAX_BATCH) {
      throw new IllegalArgumentException("max must be 1.." + MAX_BATCH + ": " + max);
    }
  }

  /** Waits for every pipelined command; the first that failed fails the call. */
  private void await(List<? extends RedisFuture<?>> futures) {
    awaitDone(futures);
    futures.forEach(this::join);
  }

  /**
   * Waits until every pipelined command has its reply, failed or not, within one bounded wait; the
   * caller looks at each (some failures, NOGROUP or TRYAGAIN, concern only their stream).
   */
  private void awaitDone(List<? extends Future<?>> futures) {
    redis.refuseBlocking("waiting for pipelined Redis replies");
    long deadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
    for (Future<?> future : futures) {
      try {
        future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        // looked at by the caller
      } catch (TimeoutException e) {
        throw new Unavailable("redis", "no answer within " + SYNC_TIMEOUT, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Unavailable("redis", "interrupted waiting for Redis", e);
      }
    }
  }

  private <T> T join(RedisFuture<T> future) {
    return join(future.toCompletableFuture());
  }

  private <T> T join(CompletableFuture<T> future) {
    redis.refuseBlocking("waiting for a Redis reply");
    try {
      return future.join();
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  @Override
  public void close() {
    RedisLink reader;
    while ((reader = readers.pollFirst()) != null) {
      reader.close();
    }
    commands.close();
  }
}
