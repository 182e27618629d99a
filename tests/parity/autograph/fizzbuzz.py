"""FizzBuzz over tf.range with tf.print (the course's lab)."""
import sys

import tensorflow as tf


@tf.function
def fizzbuzz(max_num):
    counter = 0
    for num in tf.range(max_num):
        if num % 3 == 0 and num % 5 == 0:
            tf.print("FizzBuzz", output_stream=sys.stdout)
        elif num % 3 == 0:
            tf.print("Fizz", output_stream=sys.stdout)
        elif num % 5 == 0:
            tf.print("Buzz", output_stream=sys.stdout)
        else:
            tf.print(num, output_stream=sys.stdout)
        counter += 1
    return counter

print(fizzbuzz(tf.constant(16)))
