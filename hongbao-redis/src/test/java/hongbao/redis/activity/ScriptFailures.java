package hongbao.redis.activity;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A connection whose n-th script call times out before reaching Redis, and every other command goes
 * through: a restore that Redis stops answering half-way, at a chosen point.
 */
final class ScriptFailures {

  private ScriptFailures() {}

  @SuppressWarnings("unchecked")
  static StatefulRedisConnection<String, String> onCall(
      StatefulRedisConnection<String, String> connection, int failingCall) {
    var scriptCalls = new AtomicInteger();
    RedisCommands<String, String> sync =
        proxy(
            RedisCommands.class,
            connection.sync(),
            method ->
                method.getName().startsWith("eval")
                    && scriptCalls.incrementAndGet() == failingCall);
    return proxy(
        StatefulRedisConnection.class,
        connection,
        method -> false,
        method -> method.getName().equals("sync") ? sync : null);
  }

  private static <T> T proxy(Class<T> type, Object target, Predicate<Method> failing) {
    return proxy(type, target, failing, method -> null);
  }

  private static <T> T proxy(
      Class<T> type, Object target, Predicate<Method> failing, Function<Method, ?> replacing) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              if (failing.test(method)) {
                throw new RedisCommandTimeoutException("the test stops this script call");
              }
              Object replaced = replacing.apply(method);
              if (replaced != null) {
                return replaced;
              }
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }
}
