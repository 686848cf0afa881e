/*
 * web/samples.js -- the playground's sample histories, one per anomaly it
 * shows (and a valid one), with the workload to check each as and what the
 * check finds ("expect": the verdict "true", or an anomaly type), which
 * the browser test asserts for every sample.
 */
window.ISOLDE_SAMPLES = [
  {name: "valid", label: "valid (strict-serializable)", workload: "auto", expect: "true",
   text: "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",1,1],[\"r\",2,null]],\"time\":0}\n{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",1,1],[\"r\",2,[]]],\"time\":1000}\n{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",2,1],[\"r\",1,null]],\"time\":2000}\n{\"index\":3,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",2,1],[\"r\",1,[1]]],\"time\":3000}\n{\"index\":4,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"r\",2,null]],\"time\":4000}\n{\"index\":5,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",1,[1]],[\"r\",2,[1]]],\"time\":5000}\n"},
  {name: "G0", label: "G0: write cycle", workload: "auto", expect: "G0",
   text: "{:index 0, :type :invoke, :process 0, :value [[:append :x 1] [:append :y 1]]}\n{:index 1, :type :invoke, :process 1, :value [[:append :x 2] [:append :y 2]]}\n{:index 2, :type :ok, :process 0, :value [[:append :x 1] [:append :y 1]]}\n{:index 3, :type :ok, :process 1, :value [[:append :x 2] [:append :y 2]]}\n{:index 4, :type :invoke, :process 2, :value [[:r :x nil] [:r :y nil]]}\n{:index 5, :type :ok, :process 2, :value [[:r :x [1 2]] [:r :y [2 1]]]}\n"},
  {name: "G1a", label: "G1a: aborted read", workload: "auto", expect: "G1a",
   text: "{:index 0, :type :invoke, :process 0, :value [[:append :x 1]]}\n{:index 1, :type :fail, :process 0, :value [[:append :x 1]]}\n{:index 2, :type :invoke, :process 1, :value [[:r :x nil]]}\n{:index 3, :type :ok, :process 1, :value [[:r :x [1]]]}\n"},
  {name: "G1c", label: "G1c: circular information flow", workload: "auto", expect: "G1c",
   text: "[{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"append\",\"x\",1],[\"r\",\"y\",null]]},\n {\"index\":1,\"type\":\"invoke\",\"process\":1,\"value\":[[\"append\",\"y\",1],[\"r\",\"x\",null]]},\n {\"index\":2,\"type\":\"ok\",\"process\":0,\"value\":[[\"append\",\"x\",1],[\"r\",\"y\",[1]]]},\n {\"index\":3,\"type\":\"ok\",\"process\":1,\"value\":[[\"append\",\"y\",1],[\"r\",\"x\",[1]]]}]\n"},
  {name: "G-single", label: "G-single: read skew", workload: "auto", expect: "G-single-item",
   text: "{:index 0, :type :invoke, :process 0, :value [[:append :x 1] [:append :y 1]]}\n{:index 1, :type :ok, :process 0, :value [[:append :x 1] [:append :y 1]]}\n{:index 2, :type :invoke, :process 1, :value [[:r :x nil] [:append :x 2] [:append :y 2]]}\n{:index 3, :type :invoke, :process 2, :value [[:r :x nil] [:r :y nil]]}\n{:index 4, :type :ok, :process 1, :value [[:r :x [1]] [:append :x 2] [:append :y 2]]}\n{:index 5, :type :ok, :process 2, :value [[:r :x [1]] [:r :y [1 2]]]}\n"},
  {name: "G2-item", label: "G2-item: write skew", workload: "auto", expect: "G2-item",
   text: "{:index 0, :type :invoke, :process 0, :value [[:r :x nil] [:append :y 1]]}\n{:index 1, :type :invoke, :process 1, :value [[:r :y nil] [:append :x 1]]}\n{:index 2, :type :ok, :process 0, :value [[:r :x []] [:append :y 1]]}\n{:index 3, :type :ok, :process 1, :value [[:r :y []] [:append :x 1]]}\n{:index 4, :type :invoke, :process 0, :value [[:r :x nil] [:r :y nil]]}\n{:index 5, :type :ok, :process 0, :value [[:r :x [1]] [:r :y [1]]]}\n"},
  {name: "garbage-read", label: "garbage read", workload: "auto", expect: "garbage-read",
   text: "{:index 0, :type :invoke, :process 0, :value [[:append :x 1]]}\n{:index 1, :type :ok, :process 0, :value [[:append :x 1]]}\n{:index 2, :type :invoke, :process 1, :value [[:r :x nil]]}\n{:index 3, :type :ok, :process 1, :value [[:r :x [1 9]]]}\n"},
  {name: "nonlinearizable", label: "a register that is not linearizable", workload: "cas-register", expect: "nonlinearizable",
   text: "{:index 0, :type :invoke, :process 0, :f :write, :value 1}\n{:index 1, :type :ok, :process 0, :f :write, :value 1}\n{:index 2, :type :invoke, :process 2, :f :read, :value nil}\n{:index 3, :type :ok, :process 2, :f :read, :value 1}\n{:index 4, :type :invoke, :process 1, :f :read, :value nil}\n{:index 5, :type :ok, :process 1, :f :read, :value 2}\n"},
];
