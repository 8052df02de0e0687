package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Invariants;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A link given the HTTP server's event loops keeps a command issued on a loop on that loop, reply
 * included, and refuses to block a loop. A plain Netty group of two loops stands in for Vert.x's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoopConnectionsTest {

  private EventLoopGroup group;
  private EventLoops loops;
  private RedisLink link;

  @BeforeAll
  void open() {
    group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    loops = EventLoops.of(group);
    link =
        RedisLink.open(
            TestRedis.url(),
            ClientOptions.create(),
            Duration.ofSeconds(3),
            CommandLatencyRecorder.disabled(),
            loops);
  }

  @AfterAll
  void close() {
    if (link != null) {
      link.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void aCommandIssuedOnALoop_completesOnThatLoop() throws Exception {
    assertThat(loops.size()).isEqualTo(2);
    String key = TestRedis.newUserId("loop-key");
    for (int i = 0; i < loops.size(); i++) {
      EventLoop loop = loops.loop(i);
      Thread loopThread = loop.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
      var completedOn = new CompletableFuture<Thread>();
      loop.execute(
          () ->
              link.async()
                  .incr(key)
                  .whenComplete((count, failure) -> completedOn.complete(Thread.currentThread())));
      assertThat(completedOn.get(5, TimeUnit.SECONDS)).isSameAs(loopThread);
    }
    assertThat(link.sync().get(key)).isEqualTo("2");
  }

  @Test
  void aScriptRunOnALoop_completesOnThatLoop() throws Exception {
    LuaScript script = LuaScript.fromResource("backlog.lua");
    script.load(link);
    EventLoop loop = loops.loop(1);
    Thread loopThread = loop.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
    var completedOn = new CompletableFuture<Thread>();
    loop.execute(
        () ->
            script
                .<Long>runAsync(
                    link,
                    ScriptOutputType.INTEGER,
                    new String[] {TestRedis.newUserId("no-such-stream")})
                .whenComplete((reply, failure) -> completedOn.complete(Thread.currentThread())));
    assertThat(completedOn.get(5, TimeUnit.SECONDS)).isSameAs(loopThread);
  }

  @Test
  void aSynchronousCallOnALoop_failsLoudly_insteadOfHanging() {
    var onLoop = loops.loop(0).submit(() -> link.sync().ping());
    assertThatThrownBy(() -> onLoop.get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(Invariants.InvariantViolation.class)
        .hasMessageContaining("synchronous Redis command on event loop");
    var loading = loops.loop(1).submit(() -> link.generation());
    assertThatThrownBy(() -> loading.get(5, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(Invariants.InvariantViolation.class);
  }

  @Test
  void offTheLoops_synchronousCallsWork() {
    assertThat(link.sync().ping()).isEqualTo("PONG");
    try (RedisLink another = link.another()) {
      assertThat(another.sync().ping()).isEqualTo("PONG");
    }
  }

  @Test
  void closingALink_leavesTheLoopsRunning() throws Exception {
    RedisLink second =
        RedisLink.open(
            TestRedis.url(),
            ClientOptions.create(),
            Duration.ofSeconds(3),
            CommandLatencyRecorder.disabled(),
            loops);
    assertThat(second.sync().ping()).isEqualTo("PONG");
    second.close();
    assertThat(group.isShuttingDown()).isFalse();
    assertThat(loops.loop(0).submit(() -> "alive").get(5, TimeUnit.SECONDS)).isEqualTo("alive");
  }
}
