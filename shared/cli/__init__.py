"""The ``ziggurat`` command-line tool."""
