-module(cli_args).
-export([main/0, show/0, show/1, args/1, crash/0, stop/0]).
main() -> io:format("main~n").
show() -> io:format("show/0 ~p~n", [init:get_plain_arguments()]).
show(Args) -> io:format("show/1 ~p~n", [Args]).
args(Args) -> io:format("args ~p ~p~n", [Args, init:get_argument(myflag)]).
crash() -> error({crashed, on, purpose}).
stop() -> io:format("stopping~n"), init:stop(7).
