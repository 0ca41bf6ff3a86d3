package com.switchyard.conformance;

import com.segment.analytics.Analytics;
import com.segment.analytics.Callback;
import com.segment.analytics.messages.AliasMessage;
import com.segment.analytics.messages.GroupMessage;
import com.segment.analytics.messages.IdentifyMessage;
import com.segment.analytics.messages.Message;
import com.segment.analytics.messages.PageMessage;
import com.segment.analytics.messages.ScreenMessage;
import com.segment.analytics.messages.TrackMessage;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sends identify, track, page, screen, group and alias for "PREFIX-user" through Segment's Java
 * SDK, with the data every conformance case uses (see node-sdks.spec.ts).
 * Usage: Main ENDPOINT WRITE_KEY USER_PREFIX. Exits 1 when any call is not acknowledged.
 */
public final class Main {
  private static final int CALLS = 6;

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 3) {
      System.err.println("usage: Main ENDPOINT WRITE_KEY USER_PREFIX");
      System.exit(2);
    }
    String userId = args[2] + "-user";
    CountDownLatch settled = new CountDownLatch(CALLS);
    List<String> failures = new CopyOnWriteArrayList<>();
    Analytics analytics = Analytics.builder(args[1])
        .endpoint(args[0])
        .flushQueueSize(20)
        .retries(3)
        .callback(new Callback() {
          @Override
          public void success(Message message) {
            settled.countDown();
          }

          @Override
          public void failure(Message message, Throwable error) {
            failures.add(message.type() + ": " + error);
            settled.countDown();
          }
        })
        .build();

    analytics.enqueue(IdentifyMessage.builder().userId(userId).traits(Map.of("name", "Ada", "plan", "pro")));
    analytics.enqueue(TrackMessage.builder("Order Completed").userId(userId).properties(Map.of("revenue", 42.5))
        .enableIntegration("All", false).enableIntegration("Webhooks", true));
    analytics.enqueue(PageMessage.builder("Home").userId(userId).properties(Map.of(
        "url", "https://example.com/", "title", "Home", "path", "/", "referrer", "https://example.org/")));
    analytics.enqueue(ScreenMessage.builder("Dashboard").userId(userId));
    analytics.enqueue(GroupMessage.builder("g-1").userId(userId).traits(Map.of("name", "Acme")));
    analytics.enqueue(AliasMessage.builder(userId + "-anon").userId(userId)
        .timestamp(Date.from(Instant.parse("2015-01-02T10:04:05Z"))));
    analytics.flush();

    boolean allSettled = settled.await(60, TimeUnit.SECONDS);
    analytics.shutdown();
    if (!allSettled || !failures.isEmpty()) {
      System.err.println("Segment Java SDK: " + (allSettled ? "" : "not every call settled within 60 s; ") + failures);
      System.exit(1);
    }
    System.out.println("sent " + CALLS + " calls for " + userId);
  }
}
